/**
 * CRC-32 of joined pieces from the pieces' own CRCs, as zlib's crc32_combine does: the
 * checksum of A followed by B is A's checksum "shifted" past B's length, xor B's checksum.
 * A cached page knows its parts' checksums and shifts beforehand, so a gzip answer with
 * a shopper's token in it costs a checksum of the token only, not of the whole page.
 */

/** The reflected CRC-32 polynomial (IEEE 802.3), as gzip uses it. */
const polynomial = 0xedb88320;

/** a(x) · b(x) modulo the polynomial, in the reflected bit order CRC-32 uses. */
function multiplyModP(a: number, b: number): number {
  if (a === 0) return 0;
  let m = 0x80000000;
  let product = 0;
  let factor = b;
  for (;;) {
    if (a & m) {
      product ^= factor;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    factor = factor & 1 ? (factor >>> 1) ^ polynomial : factor >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) modulo the polynomial, for k = 0 … 31. */
const powersOfX: number[] = [0x40000000];
for (let k = 1; k < 32; k++) {
  const previous = powersOfX[k - 1] as number;
  powersOfX.push(multiplyModP(previous, previous));
}

/** The operator that moves a checksum past `length` bytes: x^(8·length) modulo the polynomial. */
export function crc32Shift(length: number): number {
  let operator = 0x80000000;
  let k = 3;
  for (let n = length; n > 0; n = Math.floor(n / 2), k++) {
    if (n % 2 === 1) operator = multiplyModP(powersOfX[k % 32] as number, operator);
  }
  return operator;
}

/** CRC-32 of A then B, from crc(A), crc(B) and crc32Shift(B's length). */
export function crc32Combine(crcA: number, crcB: number, shiftB: number): number {
  return (multiplyModP(shiftB, crcA) ^ crcB) >>> 0;
}
