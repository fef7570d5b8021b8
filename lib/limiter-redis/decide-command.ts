import { Command, type Redis } from "ioredis";
import { DECIDE_SHA } from "./script";

/** CR and LF are the two bytes that end each part of a Redis command (RESP). */
const CR = 13;
const LF = 10;

/**
 * DecideCommand is EVALSHA of the decision script over `keys` with the packed argument `args`,
 * replying with a Buffer, on one Redis server (a Cluster client sends through ioredis's own
 * commands, for its routing and auto-pipelining). It goes through the client's usual path
 * (`sendCommand`: its queue, its reply parsing, the client's key prefix) but encodes itself in
 * one piece: the command's text written with one call and the argument copied after it, where
 * ioredis's encoding of a command with a Buffer in it writes each part apart, a native call each,
 * which cost more than everything else a lone decision does on the client.
 */
export class DecideCommand extends Command {
  constructor(redis: Redis, keys: readonly string[], args: Buffer) {
    const options = redis.options;
    super("evalsha", [DECIDE_SHA, keys.length, ...keys, args], {
      replyEncoding: null,
      keyPrefix: options.keyPrefix,
      errorStack: options.showFriendlyErrorStack ? new Error() : undefined,
    });
  }

  /** toWritable is the command as Redis reads it (RESP): an array of bulk strings. */
  override toWritable(_socket?: object): Buffer {
    const parts = this.args;
    const last = parts.length - 1;
    let head = `*${parts.length + 1}\r\n$7\r\nevalsha\r\n`;
    for (let i = 0; i < last; i++) {
      const part = String(parts[i]);
      head += `$${Buffer.byteLength(part)}\r\n${part}\r\n`;
    }
    const packed = parts[last] as Buffer;
    head += `$${packed.length}\r\n`;
    const headBytes = Buffer.byteLength(head);
    const out = Buffer.allocUnsafe(headBytes + packed.length + 2);
    out.write(head, 0);
    packed.copy(out, headBytes);
    out[headBytes + packed.length] = CR;
    out[headBytes + packed.length + 1] = LF;
    return out;
  }
}
