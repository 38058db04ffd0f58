/*
 * fuzz_models.c — models files (data/models.tsv format) read by oc_models_parse (src/studies/
 * train.c) for `opticoll train`, `throughput` and `reproduce wrht`.
 *
 * The input is the file's bytes, not NUL-terminated (oc_models_parse takes a length). Promises
 * checked on a file it accepts: at least one model, every field in the range include/opticoll.h
 * states, lines in file order, and oc_model_find finds every model by its name.
 */
#include "fuzz.h"

#include "opticoll.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    oc_model *m = NULL;
    size_t n = 0;
    char why[512];
    why[0] = 0;
    int rc = oc_models_parse((const char *)data, size, "fuzz.tsv", &m, &n, why, sizeof why);
    FUZZ_CHECK(rc <= 0);
    if (rc) {
        FUZZ_CHECK(why[0] != 0);
        return 0;
    }
    FUZZ_CHECK(m != NULL && n >= 1);
    for (size_t i = 0; i < n; i++) {
        /* a name is one field: not empty, no tab, space or line end; the note one line */
        FUZZ_CHECK(m[i].name && m[i].name[0] && !strpbrk(m[i].name, "\t \n"));
        FUZZ_CHECK(m[i].parameters >= 1 && m[i].parameters <= OC_MODEL_MAX_PARAMETERS);
        FUZZ_CHECK(m[i].batch >= 1 && m[i].batch <= OC_MODEL_MAX_COUNT);
        FUZZ_CHECK(m[i].samples >= 1 && m[i].samples <= OC_MODEL_MAX_COUNT);
        FUZZ_CHECK(m[i].note && !strpbrk(m[i].note, "\t\n"));
        FUZZ_CHECK(i == 0 || m[i].line > m[i - 1].line);
        /* names are unique, so the name finds this very model */
        FUZZ_CHECK(oc_model_find(m, n, m[i].name) == &m[i]);
    }
    oc_models_free(m);
    return 0;
}
