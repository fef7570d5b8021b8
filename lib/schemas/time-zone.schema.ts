import { z } from "zod";

/** MAX_QUOTED_ZONE is how much of an unknown time zone a message repeats (characters). */
const MAX_QUOTED_ZONE = 40;

/**
 * timeZoneName returns an IANA time zone's name as this runtime knows it (its case corrected:
 * "europe/paris" is "Europe/Paris"), or null when it knows none by that name. Offsets ("+01:00")
 * are not zones. A link keeps the name it was given ("Asia/Kolkata" is not made "Asia/Calcutta"),
 * so a grant names its zone as the quota it is for does.
 */
export function timeZoneName(value: string): string | null {
  if (!/^[A-Za-z]/.test(value) || value.length > 64) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return resolved.toLowerCase() === value.toLowerCase() ? resolved : value;
}

/**
 * timeZoneSchema accepts an IANA time zone's name and answers it as the runtime names it
 * (timeZoneName): case corrected; an unknown name is refused with the name repeated.
 */
export const timeZoneSchema = z
  .string({ error: "Time zone is required, such as UTC or Europe/Paris" })
  .transform((value, ctx) => {
    const name = timeZoneName(value);
    if (name === null) {
      const shown = value.length > MAX_QUOTED_ZONE ? `${value.slice(0, MAX_QUOTED_ZONE)}…` : value;
      ctx.addIssue({
        code: "custom",
        message: `Unknown time zone ${JSON.stringify(shown)}: use an IANA name, such as UTC or Europe/Paris`,
      });
      return z.NEVER;
    }
    return name;
  });
