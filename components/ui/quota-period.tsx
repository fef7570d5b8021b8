"use client";

import { useMemo, useState } from "react";
import { QUOTA_PERIODS, type QuotaPeriod } from "@/lib/vocabulary";
import { Combobox } from "./combobox";
import type { LimitDraft } from "./limit-draft";
import styles from "./limit-rows.module.css";
import { QUOTA_PERIOD_WORDS } from "./limit-words";
import { type Choice, Select } from "./select";
import { matchingZones, timeZoneNames } from "./time-zones";

/** PERIOD_CHOICES offer a quota's calendar periods: "day", "week", "month". */
const PERIOD_CHOICES: Choice<QuotaPeriod>[] = QUOTA_PERIODS.map((p) => ({
  value: p,
  label: QUOTA_PERIOD_WORDS[p],
}));

/** periodStartWords says when a quota's period starts, in its zone. */
export function periodStartWords(period: QuotaPeriod): string {
  if (period === "day") return "Each day from midnight in this time zone.";
  if (period === "week") return "Each week from Monday, midnight in this time zone.";
  return "Each month from each customer's billing day, midnight in this time zone.";
}

/**
 * QuotaPeriodFields edit a quota row's calendar period (day, week or month) and the time zone
 * whose midnights start it, labelled "Period for limit n" and "Time zone for limit n", with
 * what the period means under them (months start on each customer's billing day).
 */
export function QuotaPeriodFields({
  row,
  n,
  periodError,
  zoneError,
  invalid,
  onChange,
}: {
  row: LimitDraft;
  n: number;
  periodError: string | undefined;
  zoneError: string | undefined;
  invalid: { "aria-invalid": boolean; "aria-describedby": string | undefined };
  onChange: (change: Partial<LimitDraft>) => void;
}) {
  const zone = row.timeZone ?? "UTC";
  const zones = useMemo(() => timeZoneNames([zone]), [zone]);
  const [text, setText] = useState("");
  // The list narrows to what is typed, but not to the chosen zone's own name.
  const shown = text === zone ? zones : matchingZones(zones, text);
  const period = row.period ?? "month";
  return (
    <div className={styles.quotaPeriod}>
      <Select
        aria-label={`Period for limit ${n}`}
        className={styles.unit}
        value={period}
        choices={PERIOD_CHOICES}
        onChange={(next) => onChange({ period: next })}
        {...invalid}
      />
      <Combobox
        label={`Time zone for limit ${n}`}
        hideLabel
        className={styles.zone}
        items={shown}
        selectedItem={zone}
        itemToString={(z) => z ?? ""}
        itemToKey={(z) => z}
        onSelect={(z) => {
          if (z) onChange({ timeZone: z });
        }}
        onInputChange={setText}
        emptyText="No time zone by that name"
        error={zoneError}
        hint={periodError ? undefined : periodStartWords(period)}
      />
    </div>
  );
}
