import fc from "fast-check";
import { carriesLoneSurrogate, findingsOf } from "./checks";
import type { DiscoveredRoute } from "./discover";
import { dispatch, type ProxyModule } from "./front";
import { describe, type FuzzRequest, realize, requestArb } from "./request";
import type { RouteSpec } from "./route-table";
import { takeSnapshot } from "./state";
import { sweepRequests } from "./sweep";
import { FuzzWorld } from "./world";

/** Failure is one distinct broken promise, how often it was seen, and the first request that showed it. */
export interface Failure {
  signature: string;
  count: number;
  example: string;
}

/** RouteResult is what fuzzing one route found, and how many requests it sent. */
export interface RouteResult {
  swept: number;
  random: number;
  failures: Failure[];
}

/** seedFor derives a route's seed from the suite's, so adding a route changes no other's inputs. */
export function seedFor(seed: number, key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash ^ seed) | 0;
}

/** signatureOf names a finding without the numbers that vary from request to request. */
function signatureOf(kind: string, status: number, detail: string): string {
  return `${status} ${kind}: ${detail.replace(/\d+/g, "N").slice(0, 200)}`;
}

/** Fuzzer sends requests into one world and collects the distinct failures they show. */
class Fuzzer {
  readonly failures = new Map<string, Failure>();

  constructor(
    private readonly world: FuzzWorld,
    private readonly route: DiscoveredRoute,
    private readonly spec: RouteSpec,
    private readonly proxy: ProxyModule | undefined,
  ) {}

  /** send prepares the world, sends one request, and checks the answer and the state. */
  async send(req: FuzzRequest): Promise<void> {
    const { world, route } = this;
    await world.prepare(req.advanceMs);
    const { request, rawParams } = realize(world, route, req);
    const sent = req.body && "text" in req.body ? req.body.text : "";
    const hadBody = req.body !== undefined && ("bytes" in req.body || sent.length > 0);
    const readsBody = hadBody && this.spec.body !== null;
    const { runtime } = world.test;
    const before = await takeSnapshot(runtime);
    world.takeLogged();
    const answer = await dispatch(route, request, rawParams, this.proxy);
    const text = await answer.response.text();
    const { status } = answer.response;
    // After a 4xx nothing may have changed; after a success only text sent with a lone
    // surrogate is looked for (it must not be stored as something else).
    const refused = status >= 400 && status < 500;
    const compare = refused || (status < 300 && carriesLoneSurrogate(sent));
    const after = compare ? await takeSnapshot(runtime) : undefined;
    const logged = world.takeLogged();
    const exchange = {
      route,
      request,
      readsBody,
      sent,
      rawParams,
      answer,
      text,
      before,
      after,
      logged,
    };
    for (const finding of findingsOf(exchange, runtime)) {
      const signature = signatureOf(finding.kind, finding.status, finding.detail);
      const seen = this.failures.get(signature);
      if (seen) {
        seen.count++;
        continue;
      }
      const more = finding.more ? `\n      ${finding.more.slice(0, 400)}` : "";
      this.failures.set(signature, {
        signature,
        count: 1,
        example: `${describe(route, req)}${more}`,
      });
    }
  }
}

/**
 * fuzzRoute sends one route its sweep (a valid request, then each one-part hostile variant),
 * then `runs` random requests, each into a world prepared for it, and collects the distinct
 * failures (the property itself never fails, so one run reports all of them; the caller
 * asserts there are none).
 */
export async function fuzzRoute(
  route: DiscoveredRoute,
  spec: RouteSpec,
  options: { seed: number; runs: number; proxy: ProxyModule | undefined },
): Promise<RouteResult> {
  const world = await FuzzWorld.open();
  const fuzzer = new Fuzzer(world, route, spec, options.proxy);
  let random = 0;
  try {
    const swept = sweepRequests(route, spec, options.seed);
    for (const req of swept) await fuzzer.send(req);
    const property = fc.asyncProperty(requestArb(route, spec), async (req) => {
      random++;
      await fuzzer.send(req);
    });
    await fc.assert(property, { seed: options.seed, numRuns: options.runs });
    return { swept: swept.length, random, failures: [...fuzzer.failures.values()] };
  } finally {
    world.close();
  }
}
