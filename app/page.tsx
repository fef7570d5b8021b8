export default function HomePage() {
  return (
    <main>
      <h1>Ratekeeper</h1>
      <p>Policy-managed rate limiting. The operator dashboard is on its way.</p>
    </main>
  );
}
