// The IANA time zones a quota may count in, as the operator picks one. Pure.

/**
 * timeZoneNames lists the IANA zones this runtime knows, UTC first, then the rest by name; a
 * runtime that cannot list them offers UTC and `extra` only.
 */
export function timeZoneNames(extra: readonly string[] = []): string[] {
  const listed =
    typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const rest = [...new Set([...listed, ...extra])].filter((z) => z !== "UTC").sort();
  return ["UTC", ...rest];
}

/**
 * matchingZones keeps the zones whose name holds every word typed, in any case, "_" read as a
 * space: "new york" finds "America/New_York", "berlin" finds "Europe/Berlin". Blank keeps all.
 */
export function matchingZones(zones: readonly string[], text: string): string[] {
  const words = text
    .toLowerCase()
    .split(/[\s/_]+/)
    .filter(Boolean);
  if (words.length === 0) return [...zones];
  return zones.filter((zone) => {
    const name = zone.toLowerCase().replace(/_/g, " ");
    return words.every((w) => name.includes(w));
  });
}
