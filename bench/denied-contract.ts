import { fmtInt } from "./harness";
import { DENIED_KEY, SYNC_OPS } from "./parameters";
import { rkDenied } from "./ratekeeper-loops";

/** DeniedCheck counts, over SYNC_OPS calls on a drained key, the denials returned and throws. */
export interface DeniedCheck {
  calls: number;
  denials: number;
  thrown: number;
}

/**
 * checkDeniedThrowsNothing checks the contract: Ratekeeper's denied path returns false and never
 * throws.
 */
export function checkDeniedThrowsNothing(): DeniedCheck {
  let denials = 0;
  let thrown = 0;
  for (let i = 0; i < SYNC_OPS; i++) {
    try {
      if (!rkDenied.allow(DENIED_KEY)) denials++;
    } catch {
      thrown++;
    }
  }
  return { calls: SYNC_OPS, denials, thrown };
}

/** printDeniedCheck prints the denied-path contract's counts on one line. */
export function printDeniedCheck(deniedCheck: DeniedCheck): void {
  console.log(
    `Ratekeeper denied path: ${fmtInt(deniedCheck.calls)} calls, ${fmtInt(deniedCheck.denials)} ` +
      `denials returned, ${fmtInt(deniedCheck.thrown)} exceptions thrown`,
  );
}
