/** formatCount writes a whole number with thousands separators: 12500 -> "12,500". */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** formatShare writes a fraction as a percentage, whole when exact: 0.59 -> "59%", 2/3 -> "66.7%". */
export function formatShare(share: number): string {
  const pct = share * 100;
  const rounded = Math.round(pct * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)}%`;
}
