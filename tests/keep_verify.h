/*
 * keep_verify.h — a kept schedule (keep_rounds.h) replayed through a fresh verifier, whole or
 * with one transfer changed, for the tests of deliberate breaks (test_circpipe.c, test_circrs.c):
 * a verifier that accepts a broken schedule fails them.
 */
#ifndef OC_TEST_KEEP_VERIFY_H
#define OC_TEST_KEEP_VERIFY_H

#include "keep_rounds.h"
#include "verify/verify.h"

/* The kept rounds through a fresh verifier, changed: change 0 none, 1 round `from`'s transfer `at`
 * sent twice (in its own round), 2 that transfer moved to round `to`. 0 when the verifier
 * accepts the result. */
static inline int verify_changed(const oc__plan *plan, const keep *whole, int change, size_t from,
                                 size_t at, size_t to, char *why, size_t whylen) {
    oc__verifier *v = NULL;
    int rc = oc__verifier_new(&plan->spec, &v, why, whylen);
    if (rc) return rc;
    oc__sink *sink = oc__verifier_sink(v);
    const oc__transfer moved = change ? whole->st.rounds[from].xfers[at] : (oc__transfer){0};
    if (change == 1) to = from;
    for (size_t r = 0; r < whole->st.count && !rc; r++) {
        oc__round out = {0};
        const oc__round *in = &whole->st.rounds[r];
        for (size_t i = 0; i < in->count && !rc; i++)
            if (!(change == 2 && r == from && i == at))
                rc =
                    oc__round_push(&out, in->xfers[i].src, in->xfers[i].dst,
                                   (oc__op)in->xfers[i].op, in->xfers[i].first, in->xfers[i].count);
        if (!rc && change && r == to)
            rc = oc__round_push(&out, moved.src, moved.dst, (oc__op)moved.op, moved.first,
                                moved.count);
        if (!rc && out.count) rc = sink->round(sink, r, &out, why, whylen);
        oc__round_free(&out);
    }
    if (!rc) rc = oc__verifier_finish(v, why, whylen);
    oc__verifier_free(v);
    return rc;
}

#endif
