/** UsageSettings are the rollups' settings (validated from the environment in lib/env.ts). */
export interface UsageSettings {
  /** flushIntervalMs: how often counts leave memory (5 s): what a crash can lose at most. */
  flushIntervalMs: number;
  /** minuteRetentionDays: how long minute rows are kept (7). */
  minuteRetentionDays: number;
  /** hourRetentionDays: how long hour rows are kept (90). */
  hourRetentionDays: number;
}

/** DEFAULT_USAGE_SETTINGS are the settings when the environment sets none. */
export const DEFAULT_USAGE_SETTINGS: UsageSettings = {
  flushIntervalMs: 5_000,
  minuteRetentionDays: 7,
  hourRetentionDays: 90,
};
