/**
 * csvCell writes one CSV field (RFC 4180): quoted when it holds a comma, a quote, a line break
 * or a leading or trailing space, quotes doubled. Text that a spreadsheet would run as a formula
 * (starting with =, +, -, @, a tab or a carriage return) gets a leading apostrophe first, so it
 * shows as text (OWASP's advice against CSV injection). Numbers are written as they are.
 */
export function csvCell(value: string | number): string {
  if (typeof value === "number") return String(value);
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** csvLine writes one CSV record, CRLF-terminated as RFC 4180 asks. */
export function csvLine(values: readonly (string | number)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
