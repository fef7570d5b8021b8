/** DraftErrors are one message per dotted field path: "limits.0.count", "limits", "expiresAt". */
export type DraftErrors = Record<string, string>;

/** errorsByPath keeps the first message per dotted path. */
export function errorsByPath(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): DraftErrors {
  const errors: DraftErrors = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join(".");
    errors[path] ??= issue.message;
  }
  return errors;
}

/** firstErrors turns the API's field errors (lists of messages) into one message per path. */
export function firstErrors(errors: Record<string, readonly string[]>): DraftErrors {
  const out: DraftErrors = {};
  for (const [path, messages] of Object.entries(errors)) {
    if (messages[0]) out[path] = messages[0];
  }
  return out;
}
