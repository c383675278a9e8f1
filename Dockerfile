# undrift's image: the app (web + worker) on Node.js 24 LTS, with the kustomize
# and helm binaries built from their Go modules at the versions the tests use.
FROM golang:1.26-bookworm AS tools
WORKDIR /src
COPY scripts/cluster/versions.ts ./
RUN KUSTOMIZE=$(sed -n 's/.*kustomize: "\(v[^"]*\)".*/\1/p' versions.ts) \
 && HELM=$(sed -n 's/.*helm: "\(v[^"]*\)".*/\1/p' versions.ts) \
 && GOBIN=/out go install -trimpath -ldflags "-s -w" sigs.k8s.io/kustomize/kustomize/v5@${KUSTOMIZE} \
 && GOBIN=/out go install -trimpath -ldflags "-s -w" helm.sh/helm/v4/cmd/helm@${HELM}

# The compiled JavaScript, built with the dev dependencies, which the image leaves behind.
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# No install scripts: tsc needs none, and the `node` dev dependency's would fetch the Node.js
# binaries the image already has (so tsc is started with the image's node, not through npm run).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN node node_modules/typescript/bin/tsc -p tsconfig.build.json

# The layout of the npm package (bin/, dist/, app.yml; no src/, so bin/undrift.js runs dist/),
# with the run-time dependencies at the lockfile's versions.
FROM node:24-bookworm-slim
ENV NODE_ENV=production UNDRIFT_KUSTOMIZE=/usr/local/bin/kustomize UNDRIFT_HELM=/usr/local/bin/helm
WORKDIR /app
COPY --from=tools /out/kustomize /out/helm /usr/local/bin/
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund \
 && ln -s /app/bin/undrift.js /usr/local/bin/undrift \
 && ln -s /app/bin/undrift.js /usr/local/bin/kubectl-undrift
COPY bin ./bin
COPY --from=build /src/dist ./dist
COPY app.yml ./
USER node
EXPOSE 3000
# The flag is bin/undrift.js's shebang's, which `node bin/undrift.js` does not read (the chart passes it too).
CMD ["node", "--max-semi-space-size=4", "bin/undrift.js", "start"]
