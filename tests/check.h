/*
 * check.h — the tests' one assertion macro: CHECK(condition, printf-style message) counts a pass or
 * prints the failure with its file and line; CHECK_SUMMARY() prints "N passed, M failed" (the line
 * CI reads) and gives the exit status.
 */
#ifndef OC_TESTS_CHECK_H
#define OC_TESTS_CHECK_H

#include <stdio.h>

static int passed, failed;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            passed++;                                                                              \
        } else {                                                                                   \
            failed++;                                                                              \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                 \
            printf(__VA_ARGS__);                                                                   \
            putchar('\n');                                                                         \
        }                                                                                          \
    } while (0)

#define CHECK_SUMMARY() (printf("%d passed, %d failed\n", passed, failed), failed ? 1 : 0)

#endif
