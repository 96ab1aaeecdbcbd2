# Production image of Saved Items; docs/deploy.md says how to configure and run it.
# tests/deploy/dockerfile.test.ts builds it (or replays its steps where there is no Docker engine).

# Debian slim rather than Alpine: the lockfile carries only the glibc builds of the bundler's native
# packages, so an Alpine (musl) build would fail. The base image's Node 22 runs everything; the
# `node` devDependency that supplies Node 22 elsewhere is never installed here (see below).
FROM node:22-slim AS build
WORKDIR /app

# Manifests first, so the dependency layer is rebuilt only when they change.
COPY package.json package-lock.json ./
# No dependency install scripts: the npm in this image does not read package.json's allowScripts, and
# the scripts that list keeps off would fetch engine binaries from outside the npm registry (Prisma)
# or a second Node (the `node` package). The one script the app needs runs below, explicitly.
RUN npm ci --ignore-scripts --no-audit --no-fund

COPY . .
RUN npm run db:generate && npm run build
RUN npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:22-slim
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    npm_config_update_notifier=false
# Owned by the unprivileged user so the embedded database (used when DATABASE_URL is unset) can
# write its data directory; mount a volume there to keep it across containers.
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 3000
# `npm start` rather than the command itself, so package.json stays the one place that says how
# the server starts (it applies pending migrations first unless SKIP_MIGRATIONS=1).
CMD ["npm", "start"]
