import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpAnswer } from "./answer";
import { API_SECURITY_HEADERS } from "./security-headers";

/** BodyHandlers receive a body read by `readBody`: its text, or that it was too large, or gone. */
export interface BodyHandlers {
  text(text: string): void;
  tooLarge(): void;
  /** aborted: the client went away mid-body; there is nobody to answer. */
  aborted(): void;
}

/**
 * readBody reads a request's body as UTF-8 text, up to `maxBytes`, and calls one handler once.
 * A body that declares more in Content-Length is refused before a byte is read; one that turns
 * out longer stops being read (the answer then closes the connection). Callbacks, not a
 * Promise: on this path every allocation counts.
 */
export function readBody(request: IncomingMessage, maxBytes: number, on: BodyHandlers): void {
  if (Number(request.headers["content-length"]) > maxBytes) {
    on.tooLarge();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const done = () => {
    request.off("data", onData);
    request.off("end", onEnd);
    request.off("error", onGone);
    request.off("close", onClose);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      done();
      on.tooLarge();
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => {
    done();
    on.text(
      chunks.length === 1
        ? (chunks[0] as Buffer).toString("utf8")
        : Buffer.concat(chunks, size).toString("utf8"),
    );
  };
  const onGone = () => {
    done();
    on.aborted();
  };
  const onClose = () => {
    if (!request.complete) onGone();
  };
  request.on("data", onData);
  request.on("end", onEnd);
  request.on("error", onGone);
  request.on("close", onClose);
}

/** SECURITY_FIELDS are API_SECURITY_HEADERS as a flat list of names and values. */
const SECURITY_FIELDS: readonly string[] = Object.entries(API_SECURITY_HEADERS).flat();

/**
 * writeAnswer sends an answer on node:http with its Content-Length, `Cache-Control: no-store`
 * (what a server answers itself is never to be kept: decisions change) unless the answer says
 * otherwise, and the API security headers where the server entry has not already set its own on
 * the response. A 413 also closes the connection: the rest of an oversized body is not worth
 * reading.
 */
export function writeAnswer(response: ServerResponse, answer: HttpAnswer): void {
  // A flat list of names and values: Node writes it as it is, where an object's fields would be
  // copied and looked up by name on every answer. The answer's own fields win (as they are named).
  const own = answer.headers;
  const fields: (string | number)[] = [];
  for (let i = 0; i < SECURITY_FIELDS.length; i += 2) {
    const name = SECURITY_FIELDS[i] as string;
    if (!(name in own) && !response.hasHeader(name)) {
      fields.push(name, SECURITY_FIELDS[i + 1] as string);
    }
  }
  if (!("Cache-Control" in own)) fields.push("Cache-Control", "no-store");
  for (const name in own) fields.push(name, own[name] as string);
  fields.push("Content-Length", Buffer.byteLength(answer.body));
  if (answer.status === 413) fields.push("Connection", "close");
  response.writeHead(answer.status, fields as unknown as string[]);
  response.end(answer.body);
}
