/* Pooling and report formatting (pooling_and_output.md §2, §4, §5). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/collector.h"
#include "core/output.h"
#include "test_util.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    static char buf[1 << 16];
    size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    buf[n] = 0;
    if (f)
        fclose(f);
    return buf;
}

int main(void)
{
    LsCollector *fc;
    CHECK(ls_collector_create(&fc) == 0);
    const double v[4] = { 1.0, 0.0000001, 3.0000002, 0.5 };
    for (unsigned i = 0; i < 4; i++)
        CHECK(ls_collector_append(fc, "x", v[i], i) == 0);
    CHECK(ls_collector_append(fc, "x", 2.0, 1) == -EINVAL); /* never overwritten */
    CHECK(ls_collector_append(fc, "y", NAN, 0) == 0);
    CHECK(ls_collector_append(fc, "y", 2.0, 2) == 0);
    CHECK(ls_collector_set_aggregate(fc, "a", -INFINITY) == 0);
    CHECK(ls_collector_set_aggregate(fc, "a", -INFINITY) == 0);
    CHECK(ls_collector_set_aggregate(fc, "a", 1.0) == -EINVAL);

    double s;
    CHECK(ls_pool(fc, "x", VMAF_POOL_METHOD_MEAN, 0, 0, 3, &s) == 0);
    CHECK_BITS(s, (((1.0 + 0.0000001) + 3.0000002) + 0.5) / 4);
    CHECK(ls_pool(fc, "x", VMAF_POOL_METHOD_HARMONIC_MEAN, 0, 0, 3, &s) == 0);
    CHECK_BITS(s, 4.0 / ((((1.0 / 2.0) + 1.0 / (0.0000001 + 1.0)) + 1.0 / (3.0000002 + 1.0)) +
                         1.0 / 1.5) - 1.0);
    CHECK(ls_pool(fc, "x", VMAF_POOL_METHOD_MIN, 2, 0, 3, &s) == 0 && s == 1.0); /* 0 and 2 */
    CHECK(ls_pool(fc, "x", VMAF_POOL_METHOD_MAX, 2, 1, 3, &s) == 0 && s == 3.0000002);
    CHECK(ls_pool(fc, "y", VMAF_POOL_METHOD_MEAN, 0, 0, 3, &s) == -EINVAL); /* missing at 1 */

    const LsOutputInfo info = { .fc = fc, .pic_cnt = 4, .width = 16, .height = 8 };
    const char *path = "test_output.tmp";
    CHECK(ls_write_output(&info, path, VMAF_OUTPUT_FORMAT_JSON) == 0);
    const char *json = slurp(path);
    CHECK(strstr(json, "\"x\": 1.000000,\n") != NULL);
    CHECK(strstr(json, "\"x\": 0.0000001000000000\n") != NULL);   /* > 6 leading zeros: %.16f */
    CHECK(strstr(json, "\"x\": 3.0000002000000001,\n") != NULL);
    /* libvmaf's quirk: no newline after a null value */
    CHECK(strstr(json, "\"y\": null      }\n    }") != NULL);
    CHECK(strstr(json, "\"a\": null\n  }\n}\n") != NULL);
    CHECK(ls_write_output(&info, path, VMAF_OUTPUT_FORMAT_CSV) == 0);
    CHECK(!strcmp(slurp(path), "Frame,x,y,\n0,1.000000,nan,\n1,0.0000001000000000,\n"
                               "2,3.0000002000000001,2.000000,\n3,0.500000,\n"));
    CHECK(ls_write_output(&info, path, VMAF_OUTPUT_FORMAT_SUB) == 0);
    CHECK(!strncmp(slurp(path), "{0}{1}frame: 0|x: 1.000000|y: nan|\n", 34));
    CHECK(ls_write_output(&info, path, VMAF_OUTPUT_FORMAT_XML) == 0);
    CHECK(strstr(slurp(path), "    <frame frameNum=\"3\" x=\"0.500000\" />\n") != NULL);
    CHECK(strstr(slurp(path), "<aggregate_metrics a=\"-inf\" />") != NULL);
    const LsOutputInfo max = { .fc = fc, .pic_cnt = 4, .score_format = "%.17g" };
    CHECK(ls_write_output(&max, path, VMAF_OUTPUT_FORMAT_CSV) == 0);
    CHECK(strstr(slurp(path), "1,9.9999999999999995e-08,\n") != NULL);
    CHECK(ls_write_output(&info, "/nonexistent/dir/x.json", VMAF_OUTPUT_FORMAT_JSON) == -EINVAL);
    remove(path);
    ls_collector_destroy(fc);
    return test_summary();
}
