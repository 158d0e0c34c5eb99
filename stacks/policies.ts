import { Effect, PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { JobKind } from "../packages/core/src/config";
import type { Grant } from "./permissions";

/** The ARNs a grant is turned into statements on. */
export interface GrantResources {
  tableArn: string;
  bucketArn: string;
  queueArns: Record<JobKind, string>;
  sesArns: string[];
}

/**
 * A grant (stacks/permissions.ts) as IAM statements: table actions on the table and its indexes,
 * object actions on the grant's key prefixes only, listing only under its prefixes (unless it may
 * list the bucket), sending only to its kinds' queues, mail only if it sends mail.
 */
export function policyStatements(grant: Grant, resources: GrantResources): PolicyStatement[] {
  const allow = (actions: string[], on: string[], conditions?: Record<string, unknown>) =>
    new PolicyStatement({ effect: Effect.ALLOW, actions, resources: on, ...(conditions ? { conditions } : {}) });
  const statements: PolicyStatement[] = [];
  if (grant.table?.length) statements.push(allow(grant.table.map((a) => `dynamodb:${a}`), [resources.tableArn, `${resources.tableArn}/index/*`]));
  for (const { actions, prefixes } of grant.objects ?? []) {
    statements.push(allow(actions.map((a) => `s3:${a}`), prefixes.map((prefix) => `${resources.bucketArn}/${prefix}*`)));
  }
  if (grant.list === "bucket") statements.push(allow(["s3:ListBucket"], [resources.bucketArn]));
  else if (grant.list?.length) statements.push(allow(["s3:ListBucket"], [resources.bucketArn], { StringLike: { "s3:prefix": grant.list.map((p) => `${p}*`) } }));
  if (grant.send?.length) statements.push(allow(["sqs:SendMessage"], grant.send.map((kind) => resources.queueArns[kind])));
  if (grant.queueAttributes?.length) statements.push(allow(["sqs:GetQueueAttributes"], grant.queueAttributes.map((kind) => resources.queueArns[kind])));
  if (grant.mail) statements.push(allow(["ses:SendEmail", "ses:SendRawEmail"], resources.sesArns));
  return statements;
}
