import type {
  CreatedServiceTokenAnswer,
  ListedServiceToken,
  ServiceTokensAnswer,
  ServiceTokenView,
} from "@/lib/schemas/service-token-answer.schema";

// The service-token admin API's response shapes, typed from their answer schemas.

export type { ListedServiceToken, ServiceTokenView };

/** ServiceTokensResponse is GET /api/admin/service-tokens. */
export type ServiceTokensResponse = ServiceTokensAnswer;

/** CreatedServiceTokenResponse is POST /api/admin/service-tokens: the token, shown this once. */
export type CreatedServiceTokenResponse = CreatedServiceTokenAnswer;
