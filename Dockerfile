# The storefront as a container: built with dev dependencies, run with production ones only, as the unprivileged
# `node` user. Configuration comes from the environment (see .env.example and docs/deploy.md).

# Build: the bundle needs the dev dependencies (React Router's Vite build, Tailwind, tsx for the content check).
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Production dependencies only, installed on their own so the final image carries no build tools.
FROM node:24-slim AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-slim
# MALLOC_ARENA_MAX: glibc's allocator keeps two arenas, not one per thread, so the memory the page compressor frees on
# Node's thread pool is used again rather than kept (docs/performance.md, "Idle memory").
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json server.ts ./
COPY content ./content
# DATA_DIR: the SQLite database in embedded mode, generated keys when none are configured.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# npm start's node command (without its build and Node version guard, done above): SIGTERM reaches node directly.
CMD ["node", "--max-semi-space-size=4", "--disable-warning=ExperimentalWarning", "server.ts"]
