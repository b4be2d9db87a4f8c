# syntax=docker/dockerfile:1.7
#
# One image for every process of the Events Calendar Content Service; the argument picks which:
#   docker run IMAGE gateway | content | calendar | aggregator | oembed | worker | all
# (the Helm chart and k8s/ pass it as the container argument; the default is the all-in-one process).
#
# Stages: toolchain (Node + python3/make/g++ for node-gyp) -> prod-deps (production dependencies,
# native modules compiled here) and build (all dependencies, TypeScript compiled) -> runtime (slim
# Node, no toolchain, non-root), which copies the compiled node_modules as they are.

ARG NODE_VERSION=20.19

FROM node:${NODE_VERSION}-bookworm-slim AS toolchain
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# better-sqlite3 is compiled from source against this Node's own headers (no prebuilt download).
ENV npm_config_build_from_source=better-sqlite3 \
    npm_config_nodedir=/usr/local \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false

FROM toolchain AS prod-deps
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev \
 && node -e "new (require('better-sqlite3'))(':memory:').close()"

FROM toolchain AS build
COPY package.json package-lock.json ./
# Compiling TypeScript needs no native module: skip install scripts here (prod-deps builds them).
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts
COPY . .
# Files that are not TypeScript (templates, schemas) go beside the compiled code that reads them.
RUN npm run build \
 && find libs services -type f ! -name '*.ts' -exec cp --parents {} dist/ \;

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# DATA_DIR of the all-in-one process (the embedded SQLite store); a cluster uses MongoDB instead.
RUN mkdir -p /app/data && chown 1000:1000 /app/data
# The image's "node" user, by number so that Kubernetes can verify runAsNonRoot.
USER 1000:1000
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "dist/services/main.js"]
CMD ["all"]
