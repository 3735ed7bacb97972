/* harness.h: a small header-only test harness (after Box2D's ENSURE and GSL's gsl_test_rel).
 *
 *   static void test_free_fall(void) { ENSURE_NEAR(z, -4.905, 1e-9); }
 *   int main(void) { RUN(test_free_fall); return harness_report(); }
 *
 * A test passes when none of its checks fail. harness_report() prints the closing line
 * "N passed, N failed" and returns the process exit status (0 if all passed).
 * Counters are file-static: each test file is its own program.
 */
#ifndef AWE_TEST_HARNESS_H
#define AWE_TEST_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int harness_passed, harness_failed, harness_check_failed;
static const char *harness_current = "";

#define HARNESS_FAIL(...)                                                     \
  do {                                                                        \
    harness_check_failed = 1;                                                 \
    fprintf(stderr, "  FAIL %s (%s:%d): ", harness_current, __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__);                                             \
    fprintf(stderr, "\n");                                                    \
  } while (0)

/* cond must hold */
#define ENSURE(cond)                                                          \
  do {                                                                        \
    if (!(cond)) HARNESS_FAIL("%s", #cond);                                   \
  } while (0)

/* |a - b| <= tol (absolute) */
#define ENSURE_NEAR(a, b, tol)                                                \
  do {                                                                        \
    double ha_ = (a), hb_ = (b), ht_ = (tol);                                 \
    if (!(fabs(ha_ - hb_) <= ht_))                                            \
      HARNESS_FAIL("%s = %.12g, expected %.12g (abs tol %.3g, off by %.3g)",  \
                   #a, ha_, hb_, ht_, ha_ - hb_);                             \
  } while (0)

/* |a - b| <= rtol*|b| (relative) */
#define ENSURE_REL(a, b, rtol)                                                \
  do {                                                                        \
    double ha_ = (a), hb_ = (b), ht_ = (rtol);                                \
    if (!(fabs(ha_ - hb_) <= ht_ * fabs(hb_)))                                \
      HARNESS_FAIL("%s = %.12g, expected %.12g (rel tol %.3g, rel err %.3g)", \
                   #a, ha_, hb_, ht_, fabs(ha_ - hb_) / fabs(hb_));           \
  } while (0)

/* strings equal */
#define ENSURE_STR(a, b)                                                      \
  do {                                                                        \
    const char *ha_ = (a), *hb_ = (b);                                        \
    if (!ha_ || !hb_ || strcmp(ha_, hb_) != 0)                                \
      HARNESS_FAIL("%s = \"%s\", expected \"%s\"", #a, ha_ ? ha_ : "(null)",  \
                   hb_ ? hb_ : "(null)");                                     \
  } while (0)

/* haystack contains needle */
#define ENSURE_CONTAINS(hay, needle)                                          \
  do {                                                                        \
    const char *ha_ = (hay), *hb_ = (needle);                                 \
    if (!ha_ || !strstr(ha_, hb_))                                            \
      HARNESS_FAIL("%s does not contain \"%s\": \"%s\"", #hay, hb_,           \
                   ha_ ? ha_ : "(null)");                                     \
  } while (0)

/* run one test function and count it */
#define RUN(fn)                                                               \
  do {                                                                        \
    harness_current = #fn;                                                    \
    harness_check_failed = 0;                                                 \
    fn();                                                                     \
    if (harness_check_failed) {                                               \
      harness_failed++;                                                       \
      fprintf(stderr, "FAIL %s\n", #fn);                                      \
    } else {                                                                  \
      harness_passed++;                                                       \
    }                                                                         \
  } while (0)

static inline int harness_report(void) {
  printf("%d passed, %d failed\n", harness_passed, harness_failed);
  return harness_failed ? 1 : 0;
}

#endif
