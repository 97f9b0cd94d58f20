/* Integer and single-precision numerics compiled by GCC for rv32imfc (compressed code, M, F,
 * libgcc soft 64-bit arithmetic), printed with printf; exits with a computed status so the exit
 * path is checked too.  Built with -ffp-contract=off so only explicit fmaf() fuses. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t crc32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    while (n--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & -(c & 1));
    }
    return ~c;
}

static int cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

int main(void)
{
    const char *msg = "The quick brown fox jumps over the lazy dog";
    printf("crc32 %08lx\n", (unsigned long)crc32((const uint8_t *)msg, strlen(msg)));

    int v[16];
    uint32_t seed = 12345;
    for (int i = 0; i < 16; i++) {
        seed = seed * 1103515245u + 12345u;
        v[i] = (int)(seed >> 8) - (1 << 22);
    }
    qsort(v, 16, sizeof v[0], cmp);
    long sum = 0;
    for (int i = 0; i < 16; i++)
        sum += v[i] % 1000 + v[i] / 7;
    printf("sorted %d .. %d, sum %ld\n", v[0], v[15], sum);

    volatile int64_t a = -987654321012LL, b = 12345;
    printf("i64 %lld %lld %lld\n", (long long)(a / b), (long long)(a % b), (long long)(a * b));
    volatile uint32_t u = 0xdeadbeef, w = 77;
    printf("u32 %lu %lu %08lx\n", (unsigned long)(u / w), (unsigned long)(u % w),
           (unsigned long)(((uint64_t)u * u) >> 32));

    float m[4][4], x[4] = {1.5f, -2.25f, 3.125f, 0.1f}, y[4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            m[i][j] = (float)(i * 4 + j) / 3.0f - 1.0f;
    for (int i = 0; i < 4; i++) {
        float acc = 0.0f;
        for (int j = 0; j < 4; j++)
            acc += m[i][j] * x[j];
        y[i] = acc;
    }
    printf("matvec %08lx %08lx %08lx %08lx\n", (unsigned long)bits(y[0]),
           (unsigned long)bits(y[1]), (unsigned long)bits(y[2]), (unsigned long)bits(y[3]));
    volatile float p = 1.0f + 0x1p-23f, q = -(1.0f + 0x1p-22f);
    printf("fmaf %08lx plain %08lx\n", (unsigned long)bits(fmaf(p, p, q)),
           (unsigned long)bits(p * p + q));
    volatile float s = 2.0f, n = -1.0f, zero = 0.0f;
    printf("sqrtf %08lx %08lx div %08lx %08lx\n", (unsigned long)bits(sqrtf(s)),
           (unsigned long)bits(sqrtf(n)) & 0x7fffffffu, (unsigned long)bits(1.0f / zero),
           (unsigned long)bits(n / 3.0f));
    volatile float big = 123456.78f, neg = -2.5f;
    printf("conv %ld %ld %lu %ld\n", (long)big, (long)neg, (unsigned long)(float)7.9f,
           lrintf(neg));
    printf("minmax %g %g %d %d\n", fminf(s, n), fmaxf(s, n), isnan(sqrtf(n)) != 0,
           (int)(n < zero));
    return (int)(crc32((const uint8_t *)msg, 3) & 0x3f) | 1;
}
