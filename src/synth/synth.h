/*
 * synth.h — the synth room: exact optima for small instances (synth.c). It stands above the
 * pipeline (it maps and verifies every schedule it finds through src/run) and above the schedule
 * file writer (src/formats), and below src/reproduce, whose optima table calls it.
 */
#ifndef OC_SYNTH_H
#define OC_SYNTH_H

#include "formats/formats.h"
#include "opticoll.h"

/* Deliberate breaks of the encoding, for the test that shows its checks catch them
 * (tests/test_synth.c): never set by the library or the tool. */
enum {
    OC__SYNTH_DROP_LINKS = 1 /* no (directed link, channel) capacity on the ring */
};

/* oc_synth with test-only breaks (`weaken`: OC__SYNTH_ bits; 0 = the real encoding). */
int oc__synth_run(const oc_synth_spec *spec, unsigned weaken, oc_synth_result **out, char *why,
                  size_t len);

#endif
