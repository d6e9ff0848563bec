# syntax=docker/dockerfile:1
# The shop in production: see README.md, « Mise en production ».
#   docker build -t boutique .
#   docker run -e SHOP_MODE=live -e … -p 3000:3000 -v boutique-data:/data boutique

# 1. The production dependencies alone (npm ci --omit=dev); better-sqlite3's compiler as a fallback
#    when no prebuilt binary fits.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev

# 2. The build (Vite, Remix), with every dependency.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci
COPY . .
RUN npm run build

# 3. What runs: Node 20 slim, the production dependencies, the build, the migrations, and
#    PostgreSQL's client programs for npm run db:backup / db:restore (Debian's postgresql-client).
FROM node:20-bookworm-slim AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends postgresql-client \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /data/backups \
  && chown -R node:node /data
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=/data/shop.db \
    DATA_DIR=/data \
    BACKUP_DIR=/data/backups
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --chown=node:node package.json ./
COPY --chown=node:node server ./server
COPY --chown=node:node drizzle ./drizzle
COPY --chown=node:node drizzle-pg ./drizzle-pg
COPY --chown=node:node stripe-emulator ./stripe-emulator
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SHOP_MODE is required: demo (the local emulator) or live (Stripe's keys); the shop refuses to guess.
# The node flags are server/node-flags.js's (V8's young generation, the same on every machine).
CMD ["sh", "-c", ": \"${SHOP_MODE:?SHOP_MODE est requis : demo ou live (voir README, Mise en production)}\"; exec node --max-semi-space-size=8 server/index.js"]
