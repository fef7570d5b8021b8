import { redirect } from "next/navigation";

/** The root sends operators to the overview (which sends them to sign in when needed). */
export default function HomePage() {
  redirect("/overview");
}
