/*
 * fuzz_msccl.c — `opticoll verify FILE.xml`: the MSCCL XML importer (src/formats/msccl_import.c).
 *
 * The input is the file's text, given to oc__verify_msccl as oc_verify_file gives it after seeing
 * a '<' (libxml2 parses it; the importer checks the algo/gpu/tb/step structure, the dependencies,
 * the matching of sends and receives, and replays the result through the semantic verifier).
 * Going to the importer directly keeps every mutation on the XML side. Promise checked: verified
 * with a report, or refused with a reason.
 */
#include "fuzz.h"

#include "formats/formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_budget();
    char *text = fuzz_cstr(data, size), why[512];
    why[0] = 0;
    oc_report *rep = NULL;
    int rc = oc__verify_msccl("fuzz.xml", text, NULL, NULL, NULL, NULL, &rep, why, sizeof why);
    FUZZ_CHECK(rc <= 0);
    FUZZ_CHECK(rc ? rep == NULL && why[0] : rep != NULL);
    oc_report_free(rep);
    free(text);
    return 0;
}
