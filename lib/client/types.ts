import type { AuditAnswer, AuditEntry } from "@/lib/schemas/audit-answer.schema";
import type {
  CustomerAnswer,
  CustomerKeyAnswer,
  CustomerListItem,
  CustomersAnswer,
  CustomerView,
  OverrideView,
  ResetAnswer,
} from "@/lib/schemas/customer-answer.schema";
import type {
  DryRunAnswer,
  DryRunLimitReport,
  DryRunState,
} from "@/lib/schemas/dry-run-answer.schema";
import type { HealthAnswer } from "@/lib/schemas/health-answer.schema";
import type {
  BucketHistory,
  DecisionReason,
  DecisionView,
  InspectAnswer,
  TestRequestAnswer,
} from "@/lib/schemas/inspect-answer.schema";
import type { NearLimitAnswer, NearLimitView } from "@/lib/schemas/near-limit-answer.schema";
import type {
  AnyStoredLimit,
  PlanListItem as BucketPlanListItem,
  PlanView,
} from "@/lib/schemas/plan-answer.schema";
import type { TrafficAnswer, TrafficPoint } from "@/lib/schemas/traffic-answer.schema";
import type {
  NamedCustomerUsage,
  PlansUsageAnswer,
  PlanUsageView,
  TopCustomersAnswer,
  UsageAnswer,
  UsagePoint,
  UsageSeries,
} from "@/lib/schemas/usage-answer.schema";

// The admin API's response shapes, as the dashboard types them: from the answer schemas in
// lib/schemas, which the server builds its answers by (and the answer tests parse real answers
// against, strictly). Nothing here imports a server module.

export type {
  AuditEntry,
  BucketHistory,
  CustomerListItem,
  CustomerView,
  DecisionReason,
  DecisionView,
  DryRunLimitReport,
  DryRunState,
  NamedCustomerUsage,
  NearLimitView,
  OverrideView,
  PlanUsageView,
  TrafficPoint,
  UsagePoint,
  UsageSeries,
};

/**
 * WithQuotas is a plan's answer whose limits may be quotas as well as buckets, as the plan answers
 * are once plans have quotas (anyStoredLimitSchema; the server's planViewSchema widens to it).
 */
type WithQuotas<T extends { limits: unknown }> = Omit<T, "limits"> & { limits: AnyStoredLimit[] };

/** PlanWithLimits is a plan with its limits, buckets and quotas, as answered. */
export type PlanWithLimits = WithQuotas<PlanView>;
/** PlanListItem is a plan with its customer count, as the plans list answers it. */
export type PlanListItem = WithQuotas<BucketPlanListItem>;
/** PlansResponse is GET /api/admin/plans's answer. */
export type PlansResponse = { plans: PlanListItem[] };
/** PlanResponse is one plan's answer (GET, POST, PATCH). */
export type PlanResponse = { plan: PlanWithLimits };
/** PromoteResponse is what promoting a plan's dry-run limits answers. */
export type PromoteResponse = PlanResponse & { promoted: number };
/** CustomersResponse is one page of the customers list. */
export type CustomersResponse = CustomersAnswer;
/** CustomerResponse is GET /api/admin/customers/:id's answer. */
export type CustomerResponse = CustomerAnswer;
/** CreatedCustomerResponse is what creating a customer or rotating its key answers. */
export type CreatedCustomerResponse = CustomerKeyAnswer;
/** ResetResponse is what resetting a customer's buckets answers. */
export type ResetResponse = ResetAnswer;
/** InspectResponse is GET /api/admin/customers/:id/inspect's answer (`history` when asked). */
export type InspectResponse = InspectAnswer;
/** TestRequestResponse is what a protected request would have been answered, and why. */
export type TestRequestResponse = TestRequestAnswer;
/** DryRunResponse is a plan's or a customer's dry-run report. */
export type DryRunResponse = DryRunAnswer;
/** AuditResponse is one page of the audit log. */
export type AuditResponse = AuditAnswer;
/** TrafficResponse is GET /api/admin/traffic's answer. */
export type TrafficResponse = TrafficAnswer;
/** UsageResponse is GET /api/admin/usage's answer. */
export type UsageResponse = UsageAnswer;
/** TopCustomersResponse is GET /api/admin/usage/top's answer. */
export type TopCustomersResponse = TopCustomersAnswer;
/** PlansUsageResponse is GET /api/admin/usage/plans's answer. */
export type PlansUsageResponse = PlansUsageAnswer;
/** HealthResponse is GET /api/health's answer: the instance and its bucket store. */
export type HealthResponse = HealthAnswer;
/** NearLimitResponse is GET /api/admin/usage/near-limit's answer. */
export type NearLimitResponse = NearLimitAnswer;
