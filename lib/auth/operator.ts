import { createHash, randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import {
  deleteExpiredSessions,
  deleteSession,
  findSession,
  getSetting,
  insertSession,
  putSetting,
} from "@/db/queries/operator";
import type { Clock } from "@/lib/limiter";
import type { Logger } from "@/lib/log";
import { generatePassword, hashPassword, verifyPassword } from "./password";

/** SESSION_COOKIE is the name of the operator's session cookie. */
export const SESSION_COOKIE = "rk_session";
/** SESSION_TTL_MS is how long an operator session lasts: 12 hours. */
export const SESSION_TTL_MS = 12 * 3_600_000;
/** OPERATOR is the actor recorded in the audit log for the admin account. */
export const OPERATOR = "admin";

const PASSWORD_SETTING = "admin_password_hash";

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * OperatorAuth checks the admin password and keeps operator sessions in SQLite (token hashes
 * only). The password comes from ADMIN_PASSWORD, or is generated on first start, stored
 * hashed and printed once.
 */
export class OperatorAuth {
  private readonly passwordHash: string;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    adminPassword: string | undefined,
    log: Logger,
  ) {
    if (adminPassword) {
      this.passwordHash = hashPassword(adminPassword);
    } else {
      const stored = getSetting(db, PASSWORD_SETTING);
      if (stored) {
        this.passwordHash = stored;
      } else {
        const generated = generatePassword();
        this.passwordHash = hashPassword(generated);
        putSetting(db, PASSWORD_SETTING, this.passwordHash);
        log.info(`Generated admin password (shown once, stored hashed): ${generated}`);
      }
    }
  }

  /** login returns a new session token when the password is right, else null. */
  login(password: string): { token: string; expiresAt: number } | null {
    if (!verifyPassword(password, this.passwordHash)) return null;
    const now = this.clock.now();
    deleteExpiredSessions(this.db, now);
    const token = randomBytes(32).toString("base64url");
    const expiresAt = now + SESSION_TTL_MS;
    insertSession(this.db, {
      tokenHash: hashToken(token),
      actor: OPERATOR,
      createdAt: now,
      expiresAt,
    });
    return { token, expiresAt };
  }

  /** actorOf returns the operator of a live session token, or null. */
  actorOf(token: string | undefined): string | null {
    if (!token) return null;
    const session = findSession(this.db, hashToken(token));
    if (!session || session.expiresAt <= this.clock.now()) return null;
    return session.actor;
  }

  /** logout ends a session. */
  logout(token: string): void {
    deleteSession(this.db, hashToken(token));
  }
}
