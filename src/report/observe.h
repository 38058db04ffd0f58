/*
 * observe.h — what is built on a network model's observations (net.h: oc__observer, oc__grid):
 * per-resource utilisation (`run --links`, links.c) and the Chrome/Perfetto timeline
 * (`export --format chrome`, chrome.c). Both hang on the checked run through an oc__watch, which
 * the pipeline attaches to the model once it is created and finishes once the report is filled.
 */
#ifndef OC_OBSERVE_H
#define OC_OBSERVE_H

#include "run/pipeline.h"

typedef struct oc__watch oc__watch;
struct oc__watch {
    /* The model is created: ask it to observe (model->observe), or fail with a clear message
     * when it does not implement the hook. */
    int (*attach)(oc__watch *w, const oc__model *model, oc__netrun *net, char *why, size_t len);
    /* The report is filled (time_s known) and the model still alive (for names). */
    int (*finish)(oc__watch *w, oc_report *rep, char *why, size_t len);
};

/* oc__run_schedule with a watch (NULL: none). */
int oc__run_schedule_watched(const oc__spec *spec, oc__source source, void *source_arg,
                             const oc__model *model, const oc_kv *net_params, int data_check,
                             oc__sink *extra, oc__watch *watch, oc_report *rep, char *why,
                             size_t len);

/* The failure of a model without the hook, in one line. */
int oc__observe_unsupported(const oc__model *model, const char *what, char *why, size_t len);

/* ---- utilisation (links.c) ---- */

typedef struct oc__links oc__links;
/* A watch that accumulates busy time per resource and, at finish, renders the "links" report
 * into rep (rep->links_json, rep->links_text). */
oc__links *oc__links_new(void);
oc__watch *oc__links_watch(oc__links *l);
void oc__links_free(oc__links *l);

#endif
