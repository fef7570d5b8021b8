import type { Metadata } from "next";
import { Simulator } from "@/components/simulator/simulator";

export const metadata: Metadata = { title: "Simulator · Ratekeeper" };

/** The simulator: what limits would do to a traffic pattern, computed in the browser. */
export default function SimulatorPage() {
  return <Simulator />;
}
