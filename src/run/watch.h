/*
 * watch.h — how the rooms above the pipeline observe a checked run without the pipeline knowing
 * them: an oc__watch hangs on the run (the per-resource utilisation of `run --links`,
 * src/run/links.c; the Chrome/Perfetto timeline of `export --format chrome`,
 * src/formats/chrome.c). The pipeline attaches it to the network model once the model is created
 * (net.h: oc__observer, oc__grid) and finishes it once the result is filled: a callback, so that
 * nothing in src/run calls a room above it.
 */
#ifndef OC_WATCH_H
#define OC_WATCH_H

#include "run/pipeline.h"

typedef struct oc__watch oc__watch;
struct oc__watch {
    const char *what; /* what it observes, for messages ("link utilisation") */
    /* The model is created: ask it to observe (model->observe), or fail with a clear message
     * when it does not implement the hook. */
    int (*attach)(oc__watch *w, const oc__model *model, oc__netrun *net, char *why, size_t len);
    /* The report is filled (time_s known) and the model still alive (for names). */
    int (*finish)(oc__watch *w, oc_report *rep, char *why, size_t len);
};

/* oc_run with a watch on the final, checked run (NULL: none): draw, the ASTRA-sim and SimGrid
 * exporters watch the placements of the run they write. */
int oc__run_request(const oc_request *req, oc__watch *watch, oc_report **out, char *why,
                    size_t len);


/* The failure of a model without the hook, in one line. */
int oc__observe_unsupported(const oc__model *model, const char *what, char *why, size_t len);

/* ---- utilisation (links.c) ---- */

typedef struct oc__links oc__links;
/* A watch that accumulates busy time per resource and, at finish, renders the "links" report
 * into rep (rep->links_json). */
oc__links *oc__links_new(void);
oc__watch *oc__links_watch(oc__links *l);
void oc__links_free(oc__links *l);

#endif
