"use client";

import { type FormEvent, useState } from "react";
import { type Choice, Select } from "@/components/ui/select";
import { ErrorNote } from "@/components/ui/states";
import { ApiError, api } from "@/lib/client/api";
import { ROUTE_METHODS } from "@/lib/schemas/route-rule.schema";
import type { RouteTestAnswer } from "@/lib/schemas/route-rule-answer.schema";
import styles from "./route-rules.module.css";
import { testResultInWords } from "./route-rules-draft";

const METHODS = ROUTE_METHODS.filter((m) => m !== "*");
const METHOD_CHOICES: Choice<string>[] = METHODS.map((m) => ({ value: m, label: m }));

/**
 * RouteTest asks the server which saved rule a request (method and path after /gw) would hit,
 * and shows what it would cost.
 */
export function RouteTest() {
  const [method, setMethod] = useState("GET");
  const [path, setPath] = useState("/");
  const [result, setResult] = useState<string>();
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    setErrors({});
    setBusy(true);
    try {
      const answer = await api<RouteTestAnswer>("/route-rules/test", {
        method: "POST",
        body: { method, path },
      });
      setResult(testResultInWords(answer));
    } catch (e) {
      setResult(undefined);
      if (e instanceof ApiError && Object.keys(e.errors).length > 0) setErrors(e.errors);
      else setFailure(e);
    } finally {
      setBusy(false);
    }
  };
  const pathError = errors.path?.[0] ?? errors.method?.[0];
  return (
    <form className="card" noValidate onSubmit={submit} aria-label="Test a path">
      <h2>Test a path</h2>
      <p className="muted intro">
        Which saved rule a request through the gateway would hit. Give the path after /gw.
      </p>
      <div className="row">
        <Select aria-label="Method" value={method} choices={METHOD_CHOICES} onChange={setMethod} />
        <input
          aria-label="Path"
          aria-invalid={Boolean(pathError)}
          className={`mono ${styles.pattern}`}
          value={path}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => setPath(e.target.value)}
        />
        <button type="submit" className="btn" disabled={busy}>
          {busy ? "Testing…" : "Test"}
        </button>
      </div>
      {pathError ? (
        <span className="error" role="alert">
          {pathError}
        </span>
      ) : null}
      <ErrorNote error={failure} />
      {result ? (
        <p className={styles.result} role="status">
          {result}
        </p>
      ) : null}
    </form>
  );
}
