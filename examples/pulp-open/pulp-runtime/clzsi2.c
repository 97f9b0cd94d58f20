/* libgcc's count-leading-zeros helper, which pulp-runtime's FLL code calls (__builtin_clz) and
 * Debian's rv32 libgcc does not provide: linked next to an unmodified application. */
int __clzsi2(unsigned int x)
{
  int n = 0;
  if (!x) return 32;
  while (!(x & 0x80000000u)) { x <<= 1; n++; }
  return n;
}
