import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api";

/** createQueryClient is the dashboard's one query client: no retries on 4xx, quiet refetching. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 2_000,
        retry: (failures, error) =>
          !(error instanceof ApiError && error.status < 500) && failures < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}
