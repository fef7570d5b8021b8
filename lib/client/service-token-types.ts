// biome-ignore lint/style/noRestrictedImports: type-only, erased at build: the shapes are the server's own
import type { ServiceTokenView } from "@/db/queries/service-tokens";
// biome-ignore lint/style/noRestrictedImports: type-only, erased at build: the shapes are the server's own
import type { ListedServiceToken, ServiceTokenList } from "@/lib/admin/service-tokens";

// The service-token admin API's response shapes (type-only: no server code reaches the browser).

export type { ListedServiceToken, ServiceTokenView };

/** ServiceTokensResponse is GET /api/admin/service-tokens. */
export type ServiceTokensResponse = ServiceTokenList;

/** CreatedServiceTokenResponse is POST /api/admin/service-tokens: the token, shown this once. */
export interface CreatedServiceTokenResponse {
  serviceToken: ServiceTokenView;
  token: string;
}
