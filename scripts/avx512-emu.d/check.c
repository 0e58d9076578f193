/* Fixture for `scripts/avx512-emu --self-check`: proves that AVX-512
 * F/BW/VL is reported and enabled in the guest and computes right, and that
 * arguments and the exit status pass through.  Build: gcc -O2 -static
 * -mavx512f -mavx512bw -mavx512vl.  Output must equal expected.txt. */
#include <cpuid.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    unsigned a, b, c, d;
    __cpuid_count(7, 0, a, b, c, d);
    printf("cpuid avx512f=%u avx512bw=%u avx512vl=%u\n",
           (b >> 16) & 1, (b >> 30) & 1, (b >> 31) & 1);
    __cpuid(1, a, b, c, d);
    unsigned osxsave = (c >> 27) & 1, xcr0 = 0;
    if (osxsave)
        xcr0 = (unsigned)_xgetbv(0);
    /* bits 5-7: opmask, ZMM_Hi256, Hi16_ZMM state enabled by the kernel */
    printf("osxsave=%u xcr0_avx512=%x\n", osxsave, (xcr0 >> 5) & 7);
    for (int i = 1; i < argc; i++)
        printf("arg%d=<%s>\n", i, argv[i]);

    uint8_t src[64], dst[64];
    for (int i = 0; i < 64; i++) { src[i] = (uint8_t)(i + 1); dst[i] = 0xee; }
    __m512i v = _mm512_maskz_loadu_epi8(0x00000000ffff000fULL, src);
    _mm512_mask_storeu_epi8(dst, 0x00ffffffffffffffULL, v);
    printf("masked ld/st: ");
    for (int i = 0; i < 64; i++) printf("%02x", dst[i]);
    printf("\n");

    uint32_t o[16];
    _mm512_storeu_si512(o, _mm512_rol_epi32(_mm512_set1_epi32((int)0x80000001u), 4));
    __m256i y = _mm256_rol_epi32(_mm256_set1_epi32(0x12345678), 8); /* AVX512VL */
    uint32_t oy[8];
    _mm256_storeu_si256((__m256i *)oy, y);
    printf("rol32: %08x %08x\n", o[15], oy[7]);
    return 7;
}
