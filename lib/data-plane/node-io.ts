import type { IncomingMessage, ServerResponse } from "node:http";
import type { PlaneAnswer } from "./answer";
import type { BodyRead } from "./decision-api";

/** BodyAborted is thrown by `readBody` when the client goes away mid-body: nobody to answer. */
export class BodyAborted extends Error {}

/**
 * readBody reads a request's body as UTF-8 text, up to `maxBytes`. A body that declares more in
 * Content-Length is refused before a byte is read; one that turns out longer stops being read
 * (the answer then closes the connection).
 */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = Number(request.headers["content-length"]);
  if (declared > maxBytes) return Promise.resolve({ ok: false, tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
      request.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        done();
        resolve({ ok: false, tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve({ ok: true, text: Buffer.concat(chunks, size).toString("utf8") });
    };
    const onError = (error: Error) => {
      done();
      reject(new BodyAborted("The request body could not be read", { cause: error }));
    };
    const onClose = () => {
      if (request.complete) return;
      done();
      reject(new BodyAborted("The client closed the connection mid-body"));
    };
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
    request.on("close", onClose);
  });
}

/**
 * writeAnswer sends an answer with its Content-Length. A 413 also closes the connection: the
 * rest of an oversized body is not worth reading.
 */
export function writeAnswer(response: ServerResponse, answer: PlaneAnswer): void {
  const body = Buffer.from(answer.body, "utf8");
  const headers: Record<string, string | number> = {
    ...answer.headers,
    "Content-Length": body.length,
  };
  if (answer.status === 413) headers.Connection = "close";
  response.writeHead(answer.status, headers);
  response.end(body);
}
