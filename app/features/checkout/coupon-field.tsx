import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { COUPON_CODE_MAX_LENGTH, COUPON_CODE_PATTERN } from "./coupons";

/** The coupon code being typed; a link with `?coupon=CODE` fills it in. */
export function useCouponCode() {
  const [searchParams] = useSearchParams();
  const [fromLink] = useState(() => (searchParams.get("coupon") ?? "").trim().slice(0, COUPON_CODE_MAX_LENGTH));
  const [code, setCode] = useState(fromLink);
  return { code, change: setCode, openAtFirst: fromLink !== "" } as const;
}

/**
 * `Have a coupon?`: a native disclosure, closed unless a code came with the link; the shop decides what the code is
 * worth. It stays out of the duration form, so choosing a duration without JavaScript keeps a clean URL.
 */
export function CouponField({
  code,
  openAtFirst,
  onChange,
}: {
  code: string;
  openAtFirst: boolean;
  onChange(value: string): void;
}) {
  const invalid = code.trim() !== "" && !COUPON_CODE_PATTERN.test(code.trim());
  return (
    <details open={openAtFirst}>
      <summary className="w-fit cursor-pointer rounded text-sm font-semibold text-link hover:underline">
        <Trans>Have a coupon?</Trans>
      </summary>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <label htmlFor="coupon" className="text-sm font-medium text-foreground">
          <Trans>Coupon code</Trans>
        </label>
        <input
          id="coupon"
          type="text"
          value={code}
          onChange={(event) => onChange(event.target.value)}
          dir="auto"
          maxLength={COUPON_CODE_MAX_LENGTH}
          pattern="[A-Za-z0-9_\-]{1,64}"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-invalid={invalid || undefined}
          aria-describedby="coupon-hint"
          className="w-52 rounded-lg border border-foreground/15 bg-surface/60 px-3 py-2 text-foreground aria-invalid:border-danger"
        />
      </div>
      <p id="coupon-hint" className={`mt-2 text-sm ${invalid ? "text-danger-soft" : "text-soft"}`}>
        {invalid ? (
          <Trans comment="Under the coupon field when the code holds other characters">
            Use letters, digits, hyphens or underscores only.
          </Trans>
        ) : (
          <Trans comment="Under the coupon field">The shop applies it when you check out.</Trans>
        )}
      </p>
    </details>
  );
}
