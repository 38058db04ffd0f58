/*
 * test_export_json.c — the schedule file's rounds, laid by hand (schedule_json.c), are to the
 * byte what a cJSON tree per round printed in the house style gave before.
 *
 * Every round line of an exported file is parsed back and built again as the old writer built
 * it: an array of objects {"src", "dst", "op", "chunks": [first, count], "bytes"}, numbers by
 * oc__json_u64, printed by oc__json_text(OC__JSON_SPACED); the line must be that text exactly.
 * The file must also pass `verify` (oc_verify_file) with the steps the export reported. Cases:
 * copies and reductions, one and many transfers a round, block labels (OpTree's block_node),
 * counts above one (rd, hring), bytes above 2^32 (a 1 GiB block), N = 1, 2, 3, 5, 7, 12, 100.
 */
#include "core/json.h"

#include "opticoll.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* The old writer's text of one parsed round, or NULL. */
static char *tree_text(const cJSON *round) {
    cJSON *out = cJSON_CreateArray();
    int ok = out != NULL;
    const cJSON *t;
    cJSON_ArrayForEach(t, round) {
        if (!ok) break;
        const cJSON *ch = cJSON_GetObjectItemCaseSensitive(t, "chunks");
        const cJSON *op = cJSON_GetObjectItemCaseSensitive(t, "op");
        cJSON *x = oc__json_obj(out, NULL);
        cJSON *chunks =
            x && cJSON_IsString(op) &&
                    oc__json_u64(
                        x, "src",
                        (uint64_t)cJSON_GetObjectItemCaseSensitive(t, "src")->valuedouble) &&
                    oc__json_u64(
                        x, "dst",
                        (uint64_t)cJSON_GetObjectItemCaseSensitive(t, "dst")->valuedouble) &&
                    oc__json_str(x, "op", op->valuestring)
                ? oc__json_arr(x, "chunks")
                : NULL;
        ok = cJSON_GetArraySize(ch) == 2 &&
             oc__json_u64(chunks, NULL, (uint64_t)cJSON_GetArrayItem(ch, 0)->valuedouble) &&
             oc__json_u64(chunks, NULL, (uint64_t)cJSON_GetArrayItem(ch, 1)->valuedouble) &&
             oc__json_u64(x, "bytes",
                          (uint64_t)cJSON_GetObjectItemCaseSensitive(t, "bytes")->valuedouble);
    }
    char *text = ok ? oc__json_text(out, OC__JSON_SPACED) : NULL;
    cJSON_Delete(out);
    return text;
}

static void one(oc_collective coll, const char *algo, const char *net, uint32_t N, uint64_t bytes,
                const char *param) {
    char why[512] = "", path[] = "/tmp/oc_test_export_json_XXXXXX";
    oc_kv *params = oc_kv_new();
    if (param) {
        char key[64];
        const char *eq = strchr(param, '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - param), param);
        oc_kv_set(params, key, eq + 1);
    }
    oc_request req = {.collective = coll,
                      .algorithm = algo,
                      .network = net,
                      .nodes = N,
                      .bytes = bytes,
                      .params = params,
                      .skip_data_check = 1};
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
    CHECK(f != NULL, "temporary file");
    if (!f) goto out;
    int rc = oc_export_json(&req, f, why, sizeof why);
    CHECK(rc == 0, "%s %s N=%u: export: %s", algo, net, N, why);
    if (rc) goto out;
    rewind(f);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    size_t rounds = 0, same = 0, transfers = 0;
    while ((n = getline(&line, &cap, f)) > 0) {
        if (strncmp(line, "  [", 3) != 0) continue; /* the frame and the header */
        size_t len = (size_t)n;
        while (len && (line[len - 1] == '\n' || line[len - 1] == ','))
            line[--len] = '\0';
        cJSON *round = cJSON_Parse(line + 2);
        char *text = round ? tree_text(round) : NULL;
        rounds++;
        transfers += round ? (size_t)cJSON_GetArraySize(round) : 0;
        if (text && strcmp(text, line + 2) == 0)
            same++;
        else if (rounds - same == 1)
            printf("  first difference, round %zu:\n  hand: %.300s\n  tree: %.300s\n", rounds,
                   line + 2, text ? text : "(none)");
        free(text);
        cJSON_Delete(round);
    }
    free(line);
    CHECK((rounds > 0 || N == 1) && same == rounds,
          "%s %s N=%u: %zu of %zu rounds as the tree wrote them", algo, net, N, same, rounds);
    fflush(f);
    oc_report *rep = NULL;
    rc = oc_verify_file(NULL, path, net, NULL, &rep, why, sizeof why);
    CHECK(rc == 0 && oc_report_verified(rep), "%s %s N=%u: verify: %s", algo, net, N, why);
    oc_report_free(rep);
    (void)transfers;
out:
    if (f) fclose(f);
    remove(path);
    oc_kv_free(params);
}

int main(void) {
    const uint32_t Ns[] = {1, 2, 3, 5, 7, 12, 100};
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++) {
        one(OC_ALLGATHER, "ring", "ring", Ns[i], 4096, NULL);
        one(OC_ALLREDUCE, "ring", "ring", Ns[i], 1 << 20, NULL);
        one(OC_ALLGATHER, "optree", "ring", Ns[i], 4096, NULL);
        one(OC_ALLGATHER, "rd", "ring", Ns[i], (uint64_t)1 << 30, NULL);
    }
    one(OC_ALLREDUCE, "hring", "ring", 12, 1 << 20, "g=3");
    one(OC_ALLREDUCE, "rhd", "ring", 100, 1 << 20, NULL);
    one(OC_ALLTOALL, "tcp2", "star", 7, 4096, NULL);
    one(OC_BROADCAST, "tcp1-split", "star", 12, 1 << 20, NULL);
    return CHECK_SUMMARY();
}
