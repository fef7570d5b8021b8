"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { Empty, ErrorNote, Loading, PageHeader } from "@/components/ui/states";
import { api } from "@/lib/client/api";
import type {
  CreatedServiceTokenResponse,
  ListedServiceToken,
  ServiceTokensResponse,
} from "@/lib/client/service-token-types";
import { CreateTokenForm } from "./create-token-form";
import { RevokeTokenDialog } from "./revoke-token-dialog";
import { ServiceTokenRow } from "./service-token-row";
import { TokenReveal } from "./token-reveal";
import { UnknownTokenRefusals } from "./unknown-token-refusals";

/**
 * ServiceTokensPage lists the tokens services call the decision API with (prefix, scopes,
 * creation, last use, calls refused in the last hour), the calls refused with unknown tokens,
 * creates one (shown once) and revokes them.
 */
export function ServiceTokensPage() {
  const queryClient = useQueryClient();
  const tokens = useQuery({
    queryKey: ["service-tokens"],
    queryFn: () => api<ServiceTokensResponse>("/service-tokens"),
    refetchInterval: 10_000,
  });
  const [creating, setCreating] = useState(false);
  const [revealed, setRevealed] = useState<CreatedServiceTokenResponse>();
  const [revoking, setRevoking] = useState<ListedServiceToken>();
  const closeDialog = useCallback(() => setRevoking(undefined), []);
  const list = tokens.data?.serviceTokens ?? [];
  const now = tokens.dataUpdatedAt || Date.now();

  return (
    <>
      <PageHeader
        title="Service tokens"
        description={
          <>
            Your services send one of these to ask Ratekeeper for decisions (
            <code>POST /api/v1/decisions</code>). They authenticate services, never customers.
          </>
        }
        actions={
          <button
            type="button"
            className="btn primary nowrap"
            disabled={creating}
            onClick={() => {
              setRevealed(undefined);
              setCreating(true);
            }}
          >
            New service token
          </button>
        }
      />
      {revealed ? (
        <TokenReveal
          name={revealed.serviceToken.name}
          token={revealed.token}
          scopes={revealed.serviceToken.scopes}
          origin={window.location.origin}
          onDone={() => setRevealed(undefined)}
        />
      ) : null}
      {creating ? (
        <CreateTokenForm
          onCancel={() => setCreating(false)}
          onCreated={async (created) => {
            setCreating(false);
            setRevealed(created);
            await queryClient.invalidateQueries({ queryKey: ["service-tokens"] });
          }}
        />
      ) : null}
      <ErrorNote error={tokens.error} />
      {tokens.isPending ? (
        <Loading label="Loading service tokens…" />
      ) : list.length === 0 ? (
        <Empty>No service tokens yet. Create one for each service that asks for decisions.</Empty>
      ) : (
        <div className="table-wrap">
          <table className="data-table reflow reflow-wide">
            <caption className="sr-only">Service tokens</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Token</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col" className="num">
                  Refused, last hour
                </th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((token) => (
                <ServiceTokenRow key={token.id} token={token} now={now} onRevoke={setRevoking} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {tokens.data ? <UnknownTokenRefusals count={tokens.data.unknownRefusedLastHour} /> : null}
      {revoking ? <RevokeTokenDialog token={revoking} onClose={closeDialog} /> : null}
    </>
  );
}
