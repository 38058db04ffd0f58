/*
 * net.h — the network-model interface. A model consumes a schedule's logical rounds (it is a sink),
 * turns each into physical steps by giving every transfer the resources it needs, proves with an
 * independent check that no resource is used twice in a step, computes a lower bound, and costs
 * each step. It never knows which algorithm made the rounds.
 */
#ifndef OC_NET_H
#define OC_NET_H

#include "core/core.h"
#include "core/netcfg.h"
#include "core/result.h"

#include <stddef.h>

typedef struct oc__netrun oc__netrun;

/*
 * What a model tells an observer about its mapping (used by the Chrome/Perfetto timeline and the
 * per-resource utilisation of `run --links`, src/run/watch.h). A model that implements the
 * `observe` hook below calls, after each round passed its resource check, step() once for every
 * physical step of the round (in order) and then use() for every transfer's (or part of a
 * transfer's) hold on resources during one of those steps.
 *
 * Resources form a grid the model declares in its `observe` hook: `classes` rows (the ring's
 * fibre x wavelength channels; one class for ports or links) by `positions` columns (the ring's
 * directed links, a switch's ports, a fat-tree's links). A use holds classes [cls0, cls1) on the
 * positions [pos0, pos0 + npos) taken circularly inside the segment [seg, seg + seglen) (the
 * ring's arcs: a lightpath over many links is one use, never one use per hop, so utilisation is
 * a 2-D difference array, linear in uses plus the grid). A non-circular model passes seglen =
 * positions and npos = 1. Names: class_name() and pos_name() label the grid for the report.
 */
typedef struct oc__use {
    uint64_t round, step;  /* logical round; physical step (global, from 0) */
    double start_s, dur_s; /* when the transfer holds its resources */
    const oc__transfer *t; /* the transfer */
    uint32_t cls0, cls1;   /* classes [cls0, cls1) */
    uint32_t seg, seglen;  /* the circular segment of positions */
    uint32_t pos0, npos;   /* positions pos0 .. pos0 + npos - 1 inside the segment (mod) */
    const char *resource;  /* what the model assigned, in words, for the trace */
    int side;              /* whose resource: OC_USE_PATH (a path between both ends; the trace
                              shows it on the sender's and the receiver's track), OC_USE_SEND
                              (the sender's), OC_USE_RECV (the receiver's) */
    int show;              /* OC_SHOW_BOTH (0), OC_SHOW_TRACE (drawn in the timeline, not
                              counted: a fat-tree transfer as a whole), OC_SHOW_LINKS (counted,
                              not drawn: its links, each busy for its own packets) */
} oc__use;

enum { OC_USE_PATH = 0, OC_USE_SEND = 1, OC_USE_RECV = 2 };
enum { OC_SHOW_BOTH = 0, OC_SHOW_TRACE = 1, OC_SHOW_LINKS = 2 };

typedef struct oc__observer oc__observer;
struct oc__observer {
    /* Physical steps [step, step + nsteps) of round `round` take [start_s, start_s + dur_s)
     * (the ring: one call per step; the switch: one call per round, whose ports serialise). */
    int (*step)(oc__observer *o, uint64_t round, uint64_t step, uint64_t nsteps, double start_s,
                double dur_s, char *why, size_t whylen);
    int (*use)(oc__observer *o, const oc__use *u, char *why, size_t whylen);
};

/* The resource grid a model declares to an observer. */
typedef struct oc__grid {
    const char *what;                  /* "directed link x fibre x wavelength" */
    const char *class_what, *pos_what; /* "fibre x wavelength", "directed link" */
    uint32_t classes, positions;
    /* Labels (the netrun is the model's own): "fibre 0 wavelength 3", "link 3->4 cw". */
    void (*class_name)(const oc__netrun *run, uint32_t cls, char *buf, size_t len);
    void (*pos_name)(const oc__netrun *run, uint32_t pos, char *buf, size_t len);
} oc__grid;

typedef struct oc__model oc__model;

/*
 * A network's settings parsed once (oc__netset_parse): the `--net key=value` parameters read,
 * defaulted and checked by the model's `parse` hook into its own parameter record (own), which
 * every creation of the model in the run reads (oc__net_create) without parsing again. An
 * OpTree run at w = 64 creates the ring model once per candidate mapped and once per round
 * mapped alone; before, each creation parsed the settings (61 times in one run); now the run,
 * its search, its physical bound and its closed forms share one parse, and a compare shares one
 * among all its algorithms. The record is the model's own type, kept in `own` (large enough for
 * every model's, checked where each model defines it), so that the pipeline carries it without
 * knowing it.
 */
enum { OC__NETSET_OWN = 256 };
typedef struct oc__netset {
    const oc__model *model;
    const oc_kv *params; /* as given; read again only for a run of another node count */
    uint32_t nodes;      /* the node count they were checked for */
    union {
        max_align_t align;
        unsigned char bytes[OC__NETSET_OWN];
    } own;
} oc__netset;

struct oc__model {
    oc_network_info info;
    /* Reads and checks `params` (defaults applied) for a network of `nodes` nodes into `own`,
     * the model's parameter record (at most OC__NETSET_OWN bytes). Called by oc__netset_parse
     * alone: once a run. */
    int (*parse)(const oc_kv *params, uint32_t nodes, void *own, char *why, size_t whylen);
    /* 1: parse() reads `nodes` (the direct networks' dims); a creation for a spec of another
     * node count (a search's sub-problem) parses again. 0: the record holds for any count. */
    int parse_by_nodes;
    /* A run of the model on `spec` from the parsed record `own` (never the parameters: they were
     * parsed). check: 1 = map, check and cost (the default); 0 = map and count steps only
     * (parameter searches; the final run always checks). Through oc__net_create. */
    int (*create)(const oc__spec *spec, const void *own, int check, oc__netrun **out, char *why,
                  size_t whylen);
    oc__sink *(*sink)(oc__netrun *run);
    /* Fills steps, steps_lb, time_s, the breakdown and the parameters used. */
    int (*finish)(oc__netrun *run, oc_report *rep, char *why, size_t whylen);
    /* Figures the closed forms need: the seed's per-step time and the channels per direction. */
    double (*step_time)(const oc__netrun *run);
    /* Optional: a step's time with nothing in it, the part of step_time that does not depend on
     * the payload (oc__formula_in.step_fixed). Without it the pipeline creates the model again on
     * an empty payload to ask its step_time; with it, one model created tells both. */
    double (*step_fixed)(const oc__netrun *run);
    uint64_t (*channels)(const oc__netrun *run);
    uint64_t (*steps)(const oc__netrun *run);
    void (*destroy)(oc__netrun *run);
    /* Optional (circuit-switched models): the lanes a node's egress is split over in whole units
     * and the reconfiguration time, for the closed forms (oc__formula_in), the degree above which
     * a round is split and the one above which it is refused (0: none). */
    void (*circuits)(const oc__netrun *run, uint64_t *lanes, double *reconfig_s,
                     uint64_t *split_degree, uint64_t *max_degree);
    /* Optional (NULL: nothing typed, kind OC_NETCFG_NONE): the settings create() parsed, typed
     * (core/netcfg.h), for the algorithms' closed forms and searches (oc__formula_in.cfg). The
     * one way an algorithm learns a model's settings: none parses them again. */
    void (*config)(const oc__netrun *run, oc__netcfg *out);
    /* Optional (NULL: the model does not report its placements yet, and `export --format chrome`
     * and `run --links` say so and stop). Called after create() and before the first round:
     * fills *grid and from then on reports every step and use to obs. To add it to a model: keep
     * a clock of step start times, and after each round's check, call obs->step() for each of
     * its physical steps and obs->use() for each transfer's resources in it. */
    int (*observe)(oc__netrun *run, oc__observer *obs, oc__grid *grid, char *why, size_t whylen);
    /* 1 when the model's cost is additive over rounds: a round's steps and time depend on that
     * round's transfers (their ends and chunk count, in order: never their chunk labels nor their
     * op, copy or reduce, which the search's round cache leaves out of a round's key) and
     * the spec's coll, nodes, q and chunk_bytes alone (never on the rounds before it), and
     * finish()'s steps and time are the sums
     * of the rounds' with no constant term. The parameter search then maps each distinct round
     * once and costs a candidate from its cached rounds (src/run/search.c). 0 (the default) where
     * a round's cost depends on the one before: the fabric charges a reconfiguration when the
     * circuit set changes, the star a retuning. */
    int additive;
    /* Optional (NULL: none), additive models only: forgets every round a run made without the
     * resource check (create()'s check = 0) has mapped, as if it were new, and takes `spec` (the
     * same nodes, the same settings) for the next; its scratch stays allocated. The search maps
     * rounds alone one after another (search.c, round_alone): on the ring at N = 4096 a fresh run
     * for each faulted in half a gigabyte of scratch per all-to-all round. */
    void (*reset)(oc__netrun *run, const oc__spec *spec);
};

const oc__model *oc__model_find(const char *name);

/* Parses `params` for `model` on `nodes` nodes into *out (net/netset.c): the one parse of a run.
 * `params` (may be NULL: every default) must outlive *out. */
int oc__netset_parse(const oc__model *model, const oc_kv *params, uint32_t nodes, oc__netset *out,
                     char *why, size_t whylen);
/* The model's run on `spec` from the parsed settings: set->model->create on the record, parsed
 * again only when the model's settings depend on the node count and spec's differs. */
int oc__net_create(const oc__netset *set, const oc__spec *spec, int check, oc__netrun **out,
                   char *why, size_t whylen);
/* One creation from unparsed settings (a caller that creates one run: a test, a synthesised
 * schedule's check): oc__netset_parse, then oc__net_create. */
int oc__model_create(const oc__model *model, const oc__spec *spec, const oc_kv *params, int check,
                     oc__netrun **out, char *why, size_t whylen);
/* Tests only (test_netset_parse): the settings parsed since the process started, by every thread
 * (oc__netset_parse's calls), so that a test can hold a run to one parse. */
uint64_t oc__netset_parses(void);

extern const oc__model oc__model_ring;
extern const oc__model oc__model_fattree;
extern const oc__model oc__model_switch;
extern const oc__model oc__model_star;
extern const oc__model oc__model_fabric;
extern const oc__model oc__model_hypercube;
extern const oc__model oc__model_torus;
extern const oc__model oc__model_mesh;

#endif
