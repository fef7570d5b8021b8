// biome-ignore lint/style/noRestrictedImports: type-only, erased at build: the shapes are the server's own
import type { DryRunResponse } from "@/lib/admin/dry-run";
// biome-ignore lint/style/noRestrictedImports: type-only, erased at build: the shapes are the server's own
import type { NearLimitResult, NearLimitView } from "@/lib/admin/near-limit";
// biome-ignore lint/style/noRestrictedImports: type-only, erased at build: the shapes are the server's own
import type * as AdminUsage from "@/lib/admin/usage";
import type { AuditAnswer, AuditEntry } from "@/lib/schemas/audit-answer.schema";
import type {
  CustomerAnswer,
  CustomerKeyAnswer,
  CustomerListItem,
  CustomersAnswer,
  CustomerView,
  OverrideView,
} from "@/lib/schemas/customer-answer.schema";
import type {
  BucketHistory,
  DecisionReason,
  DecisionView,
  InspectAnswer,
  StoreStatus,
  TestRequestAnswer,
} from "@/lib/schemas/inspect-answer.schema";
import type {
  PlanAnswer,
  PlanListItem,
  PlansAnswer,
  PlanView as PlanWithLimits,
} from "@/lib/schemas/plan-answer.schema";
// biome-ignore lint/style/noRestrictedImports: type-only, erased at build: the shapes are the server's own
import type { DryRunLimitReport } from "@/lib/usage/dry-run-report";
// biome-ignore lint/style/noRestrictedImports: type-only, erased at build: the shapes are the server's own
import type { TrafficPoint } from "@/lib/usage/traffic-log";
// biome-ignore lint/style/noRestrictedImports: type-only, erased at build: the shapes are the server's own
import type { UsagePoint, UsageSeries } from "@/lib/usage/usage-report";

// The admin API's response shapes, as the dashboard types them: from the answer schemas in
// lib/schemas where an answer has one (the server builds those answers through the same schemas),
// else type-only imports of the server's own types (erased: no server code reaches the bundle).

export type {
  AuditEntry,
  BucketHistory,
  CustomerListItem,
  CustomerView,
  DecisionReason,
  DecisionView,
  DryRunLimitReport,
  DryRunResponse,
  NearLimitView,
  OverrideView,
  PlanListItem,
  PlanWithLimits,
  StoreStatus,
  TrafficPoint,
  UsagePoint,
  UsageSeries,
};

/** DryRunState is what a tried limit is now (see DRY_RUN_STATES for its words). */
export type DryRunState = DryRunLimitReport["state"];
/** NamedCustomerUsage is a customer's usage over a range, with its name and current plan. */
export type NamedCustomerUsage = AdminUsage.NamedCustomerUsage;
/** PlanUsageView is a plan's aggregates over a range. */
export type PlanUsageView = AdminUsage.PlanUsageView;
/** TopCustomersResponse is GET /api/admin/usage/top's answer. */
export type TopCustomersResponse = AdminUsage.TopCustomersResponse;
/** UsageResponse is GET /api/admin/usage's answer. */
export type UsageResponse = AdminUsage.UsageResponse;

/** PlansResponse is GET /api/admin/plans's answer. */
export type PlansResponse = PlansAnswer;
/** PlanResponse is one plan's answer (GET, POST, PATCH). */
export type PlanResponse = PlanAnswer;
/** CustomersResponse is one page of the customers list. */
export type CustomersResponse = CustomersAnswer;
/** CustomerResponse is GET /api/admin/customers/:id's answer. */
export type CustomerResponse = CustomerAnswer;
/** CreatedCustomerResponse is what creating a customer or rotating its key answers. */
export type CreatedCustomerResponse = CustomerKeyAnswer;
/** InspectResponse is GET /api/admin/customers/:id/inspect's answer (`history` when asked). */
export type InspectResponse = InspectAnswer;
/** TestRequestResponse is what a protected request would have been answered, and why. */
export type TestRequestResponse = TestRequestAnswer;
/** AuditResponse is one page of the audit log. */
export type AuditResponse = AuditAnswer;
export interface TrafficResponse {
  now: number;
  seconds: number;
  /** scope: the whole fleet's decisions (Redis), or this instance's alone. */
  scope: "fleet" | "instance";
  points: TrafficPoint[];
  totals: { customerId: number; name: string; allowed: number; denied: number }[];
}
/** PlansUsageResponse is GET /api/admin/usage/plans's answer. */
export interface PlansUsageResponse {
  fromMs: number;
  toMs: number;
  plans: PlanUsageView[];
}
/** NearLimitResponse is GET /api/admin/usage/near-limit's answer. */
export type NearLimitResponse = NearLimitResult;
/** PromoteResponse is what promoting a plan's dry-run limits answers. */
export interface PromoteResponse {
  plan: PlanWithLimits;
  promoted: number;
}
