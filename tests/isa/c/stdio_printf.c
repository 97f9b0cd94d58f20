/* picolibc's printf through RISC-V semihosting: integer, string, character and floating-point
 * conversions, field widths and flags.  The host build of the same file must print the same. */
#include <limits.h>
#include <stdio.h>

int main(void)
{
    volatile int values[] = {0, 1, -1, 42, -12345, INT_MAX, INT_MIN};
    for (unsigned i = 0; i < sizeof values / sizeof values[0]; i++)
        printf("%d|%5d|%-5d|%u|%x|%08X|%o\n", values[i], values[i], values[i],
               (unsigned)values[i], (unsigned)values[i], (unsigned)values[i],
               (unsigned)values[i]);
    volatile long long big = 1234567890123LL;
    printf("%lld %llx\n", big * -3, (unsigned long long)big << 7);
    printf("[%s] [%10s] [%-6s] [%.3s] %c%c %%\n", "text", "right", "left", "truncate", 'o', 'k');
    volatile float third = 1.0f / 3.0f, big_f = 3.0e38f, tiny = 1.0e-40f;
    printf("%f %.3f %e %g %g\n", third, (double)third * 2, big_f, tiny, 100.0 * third);
    printf("%.9g %.9g %.9g\n", third, big_f, tiny);
    puts("puts works");
    putchar('!');
    putchar('\n');
    return 0;
}
