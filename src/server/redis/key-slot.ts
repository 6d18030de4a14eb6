/**
 * The Redis Cluster hash slot of a key: CRC16 (XMODEM) of its hash tag — the part between
 * the first `{` and the next `}`, when not empty — or of the whole key, modulo 16384
 * (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#hash-tags).
 */
const table = (() => {
  const out = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
    out[byte] = crc & 0xffff;
  }
  return out;
})();

export function keySlot(key: string): number {
  let bytes = new TextEncoder().encode(key);
  const open = bytes.indexOf(0x7b);
  if (open !== -1) {
    const close = bytes.indexOf(0x7d, open + 1);
    if (close > open + 1) bytes = bytes.subarray(open + 1, close);
  }
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ (table[((crc >> 8) ^ byte) & 0xff] ?? 0);
  return crc % 16384;
}
