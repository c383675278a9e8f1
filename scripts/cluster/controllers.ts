// Flags of kube-controller-manager and kube-scheduler: each with its own identity
// (the users bootstrap RBAC binds), serving health on a free loopback port.
import type { Pki } from "./pki.ts";

/** kube-controller-manager with every default controller, each under its own service account as in kubeadm clusters. */
export function controllerManagerArgs(p: { kubeconfig: string; port: number; pki: Pki }): string[] {
  return [
    ...componentArgs(p),
    "--controllers=*",
    "--use-service-account-credentials=true",
    `--service-account-private-key-file=${p.pki.saKey}`,
    `--root-ca-file=${p.pki.caCert}`,
    `--cluster-signing-cert-file=${p.pki.caCert}`,
    `--cluster-signing-key-file=${p.pki.caKey}`,
    "--service-cluster-ip-range=10.0.0.0/16",
    "--cluster-name=undrift-test",
    // Tests wait on the HPA and the garbage collector; react within seconds, not the defaults' 15s.
    "--horizontal-pod-autoscaler-sync-period=5s",
    "--kube-api-qps=200",
    "--kube-api-burst=400",
  ];
}

export function schedulerArgs(p: { kubeconfig: string; port: number }): string[] {
  return componentArgs(p);
}

/** What both share: one kubeconfig for the API, authentication and authorization; health on loopback; one instance. */
function componentArgs(p: { kubeconfig: string; port: number }): string[] {
  return [
    `--kubeconfig=${p.kubeconfig}`,
    `--authentication-kubeconfig=${p.kubeconfig}`,
    `--authorization-kubeconfig=${p.kubeconfig}`,
    "--bind-address=127.0.0.1",
    `--secure-port=${p.port}`,
    "--leader-elect=false",
  ];
}
