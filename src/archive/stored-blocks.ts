// Deflate's stored blocks, and the CRC-32 arithmetic that lets a gzip member be assembled from parts.
//
// A stored block (RFC 1951, 3.2.4) carries up to 65,535 bytes as they are: on a byte boundary, one
// byte with BFINAL and BTYPE 00, then LEN and its ones' complement NLEN, little-endian, then the
// bytes. Content that is already compressed (a jar, a war, an image) is framed this way instead of
// being deflated again: 5 bytes per 64 KiB, and no CPU.

/** The most bytes one stored block carries. */
export const STORED_BLOCK_MAX = 65_535

/** Writes the 5-byte header of a stored block of `length` bytes, starting on a byte boundary, at `at`. */
export function writeStoredBlockHeader(target: Buffer, at: number, length: number, final: boolean): void {
  if (!Number.isInteger(length) || length < 0 || length > STORED_BLOCK_MAX)
    throw new RangeError(`a stored block holds 0-${STORED_BLOCK_MAX} bytes, not ${length}`)
  target[at] = final ? 1 : 0
  target.writeUInt16LE(length, at + 1)
  target.writeUInt16LE(~length & 0xffff, at + 3)
}

/** Bytes that `size` bytes of content take as stored blocks (none for an empty file). */
export function storedLength(size: number): number {
  return size + 5 * Math.ceil(size / STORED_BLOCK_MAX)
}

/** A 32x32 matrix over GF(2), as 32 column words. */
type Gf2Matrix = Uint32Array

function times(matrix: Gf2Matrix, vector: number): number {
  let sum = 0
  for (let i = 0; vector !== 0; i++, vector >>>= 1) if (vector & 1) sum ^= matrix[i]!
  return sum >>> 0
}

function square(target: Gf2Matrix, matrix: Gf2Matrix): void {
  for (let n = 0; n < 32; n++) target[n] = times(matrix, matrix[n]!)
}

/**
 * The CRC-32 of A followed by B, from crc(A), crc(B) and B's length: zlib's crc32_combine, which
 * Node does not expose. The stored parts' CRCs are known only when they are sent, after the deflated
 * parts' were computed while packing.
 */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0
  const even = new Uint32Array(32) // an operator for 2^k zero bits, alternately
  const odd = new Uint32Array(32)
  odd[0] = 0xedb88320 // the operator for one zero bit: the CRC's polynomial, reflected
  for (let n = 1, row = 1; n < 32; n++, row = (row << 1) >>> 0) odd[n] = row
  square(even, odd) // two zero bits
  square(odd, even) // four zero bits
  let crc = crcA >>> 0
  let length = lengthB
  for (;;) {
    square(even, odd) // eight zero bits (one byte), then 4, 16, ... bytes
    if (length % 2 === 1) crc = times(even, crc)
    length = Math.floor(length / 2)
    if (length === 0) break
    square(odd, even)
    if (length % 2 === 1) crc = times(odd, crc)
    length = Math.floor(length / 2)
    if (length === 0) break
  }
  return (crc ^ crcB) >>> 0
}
