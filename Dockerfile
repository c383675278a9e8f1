# undrift's image: the app (web + worker) on Node.js 24 LTS, with the kustomize
# and helm binaries built from their Go modules at the versions the tests use.
FROM golang:1.26-bookworm AS tools
WORKDIR /src
COPY scripts/cluster/versions.ts ./
RUN KUSTOMIZE=$(sed -n 's/.*kustomize: "\(v[^"]*\)".*/\1/p' versions.ts) \
 && HELM=$(sed -n 's/.*helm: "\(v[^"]*\)".*/\1/p' versions.ts) \
 && GOBIN=/out go install -trimpath -ldflags "-s -w" sigs.k8s.io/kustomize/kustomize/v5@${KUSTOMIZE} \
 && GOBIN=/out go install -trimpath -ldflags "-s -w" helm.sh/helm/v4/cmd/helm@${HELM}

FROM node:24-bookworm-slim
ENV NODE_ENV=production UNDRIFT_KUSTOMIZE=/usr/local/bin/kustomize UNDRIFT_HELM=/usr/local/bin/helm
WORKDIR /app
COPY --from=tools /out/kustomize /out/helm /usr/local/bin/
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY bin ./bin
COPY src ./src
COPY app.yml ./
USER node
EXPOSE 3000
CMD ["node", "bin/undrift.js", "start"]
