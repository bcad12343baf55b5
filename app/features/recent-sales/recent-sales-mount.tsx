import { lazy, Suspense, useEffect, useState } from "react";

// The notice's code is its own chunk, asked for once the page is idle: no page's first load carries it.
const RecentSalesNotice = lazy(() => import("./recent-sales-notice"));

/** Where the recent-sales notice appears, once the page has loaded and the browser is idle (never on the server). */
export function RecentSales() {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const ready = () => (window.requestIdleCallback ?? setTimeout)(() => setIdle(true));
    if (document.readyState === "complete") ready();
    else window.addEventListener("load", ready, { once: true });
    return () => window.removeEventListener("load", ready);
  }, []);
  return idle ? (
    <Suspense>
      <RecentSalesNotice />
    </Suspense>
  ) : null;
}
