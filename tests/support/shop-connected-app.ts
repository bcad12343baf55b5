import { expect } from "@playwright/test";
import { type ShopEmulator, startShopEmulator } from "../fakes/shop-emulator";
import { type AppServer, startAppServer } from "./app-server";

export interface ShopConnectedAppOptions {
  /** startShopEmulator's options (retry interval, shop id …). */
  emulator?: Parameters<typeof startShopEmulator>[0];
  /** The catalogue is read from the shop too (CATALOG_SOURCE=sellauth), not only its checkout. */
  catalogue?: boolean;
  /** SHOP_API_KEY set (the default); without it the app uses the shop's public storefront API. */
  apiKey?: boolean;
  /** SHOP_WEBHOOK_SECRET: the shop's notifications are signed with it. */
  webhookSecret?: string;
  /** SHOP_IMAGE_DELIVERY_URL: product images from the emulator's image delivery. */
  images?: boolean;
  /** The rest of the app's environment (LOG_LEVEL, SMTP, REVIEWS_SOURCE …). */
  env?: Record<string, string>;
  /** Runs on the emulator before the app starts (a shop that is down at the app's first boot). */
  beforeApp?: (shop: ShopEmulator) => void;
  /** The emulator sends its signed notification to the app when an invoice is paid (needs webhookSecret). */
  notifyOnPay?: boolean;
  /** Waits until /readyz answers 200 (the first catalogue read from the shop). */
  untilReady?: boolean;
}

export interface ShopConnectedApp {
  shop: ShopEmulator;
  app: AppServer;
  /** The app's environment, to start it again on the same data (see restartApp). */
  env: Record<string, string>;
  /** Stops the app, runs `whileStopped` (its data dir may be changed), and starts it again on the same data dir. */
  restartApp(whileStopped?: (dataDir: string) => void | Promise<void>): Promise<AppServer>;
  /** Stops the app, then the emulator. */
  stop(): Promise<void>;
}

/** The hosted-shop emulator on 127.0.0.1 and the built app connected to it (CHECKOUT_PROVIDER=sellauth). */
export async function startShopConnectedApp(options: ShopConnectedAppOptions = {}): Promise<ShopConnectedApp> {
  const shop = await startShopEmulator(options.emulator);
  const env: Record<string, string> = {
    ...(options.catalogue ? { CATALOG_SOURCE: "sellauth" } : {}),
    CHECKOUT_PROVIDER: "sellauth",
    SHOP_API_BASE: shop.url,
    SHOP_CHECKOUT_ORIGIN: shop.url,
    SHOP_ID: shop.shopId,
    ...(options.apiKey === false ? {} : { SHOP_API_KEY: shop.apiKey }),
    ...(options.webhookSecret ? { SHOP_WEBHOOK_SECRET: options.webhookSecret } : {}),
    ...(options.images ? { SHOP_IMAGE_DELIVERY_URL: shop.imageDeliveryUrl } : {}),
    ...options.env,
  };
  const untilReady = async (app: AppServer) => {
    if (options.untilReady)
      await expect.poll(async () => (await fetch(`${app.url}/readyz`)).status, { timeout: 15_000 }).toBe(200);
  };
  let app: AppServer | undefined;
  try {
    options.beforeApp?.(shop);
    app = await startAppServer({ env });
    if (options.notifyOnPay) {
      if (!options.webhookSecret) throw new Error("notifyOnPay needs a webhookSecret");
      shop.notifyOnPay(`${app.url}/api/shop/notifications`, options.webhookSecret);
    }
    await untilReady(app);
  } catch (error) {
    await app?.stop();
    await shop.close();
    throw error;
  }
  const connected: ShopConnectedApp = {
    shop,
    app,
    env,
    async restartApp(whileStopped) {
      const { dataDir } = connected.app;
      await connected.app.stop();
      await whileStopped?.(dataDir);
      connected.app = await startAppServer({ dataDir, env });
      await untilReady(connected.app);
      return connected.app;
    },
    async stop() {
      await connected.app.stop();
      await shop.close();
    },
  };
  return connected;
}
