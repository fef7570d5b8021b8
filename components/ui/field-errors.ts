/** DraftErrors are one message per dotted field path: "limits.0.count", "limits", "expiresAt". */
export type DraftErrors = Record<string, string>;

/** errorsByPath keeps the first message per dotted path (a map with no inherited members). */
export function errorsByPath(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): DraftErrors {
  const errors: DraftErrors = Object.create(null);
  for (const issue of issues) {
    const path = issue.path.map(String).join(".");
    errors[path] ??= issue.message;
  }
  return errors;
}

/**
 * firstErrors turns the API's field errors (lists of messages) into one message per path, in a
 * map with no inherited members: a field the server names `__proto__` or `toString` is kept.
 */
export function firstErrors(errors: Record<string, readonly string[]>): DraftErrors {
  const out: DraftErrors = Object.create(null);
  for (const [path, messages] of Object.entries(errors)) {
    if (messages[0]) out[path] = messages[0];
  }
  return out;
}
