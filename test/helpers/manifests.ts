// Manifests more than one test file needs.
import { unreadyAnnotation } from "../../scripts/cluster/kwok.ts";

/** A namespaced CustomResourceDefinition of kind Widget (spec.size, spec.color) in `group`. */
export function widgetCrd(group: string): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.${group}
spec:
  group: ${group}
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: {type: integer}
                color: {type: string}
`;
}

/** The app tests' Deployment: two replicas, one container, a comment on the field people scale. */
export const webDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2 # Git says two
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: nginx:1.27
`;

/** A one-replica web Deployment for CLI tests that scale it or own its ReplicaSets. */
export const singleWebDeployment = webDeployment.replace("replicas: 2 # Git says two", "replicas: 1");

/** The web Deployment with pods kwok keeps unready (scripts/cluster/kwok.ts): a rollout that never completes. */
export const unreadyWebDeployment = webDeployment.replace(
  "labels: {app: web}\n    spec:",
  `labels: {app: web}\n      annotations: {${unreadyAnnotation}: "true"}\n    spec:`,
);
