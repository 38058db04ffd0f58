/*
 * fuzz_schedule_json.c — `opticoll verify FILE` on a schedule file (src/formats/schedule_json.c).
 *
 * The input is the whole file, read through oc_verify_file as the CLI reads it (the input is a
 * memfd, see fuzz.h), so the size cap while reading, the sniffing of XML, cJSON, the fields, the
 * semantic verifier and, when the file names a network, that model with the file's network_params
 * all see it. The network is the file's own choice: mutations of "network" reach every model.
 * Promise checked: a file is verified (0 and a report) or refused with a reason, never both.
 */
#include "fuzz.h"

#include "opticoll.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w"))) abort();
    fuzz_budget();
    char path[64], why[512];
    why[0] = 0;
    fuzz_file(data, size, path, sizeof path);
    oc_report *rep = NULL;
    int rc = oc_verify_file(NULL, path, NULL, NULL, &rep, why, sizeof why);
    FUZZ_CHECK(rc <= 0);
    if (rc) {
        FUZZ_CHECK(rep == NULL);
        FUZZ_CHECK(why[0] != 0);
        return 0;
    }
    FUZZ_CHECK(rep != NULL);
    /* the report of a verified file is written like any other */
    FUZZ_CHECK(oc_report_write_json(rep, sink) == 0);
    oc_report_free(rep);
    return 0;
}
