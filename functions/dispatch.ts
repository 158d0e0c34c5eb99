import { AppError, errorBody } from "@sealwork/core/errors";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";

export type ApiHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * An area's Lambda handler. API Gateway names the route it matched in `routeKey`
 * ("POST /api/users/{id}/login", or the POST entry of a `_method` route), so the route's own
 * handler is one lookup away. A key this area does not serve (the API's routes and the area
 * entries out of step) answers the app's 404. The local runtime calls the same entries.
 */
export function dispatch(routes: Record<string, ApiHandler>): ApiHandler {
  return async (event, context) => {
    const route = Object.hasOwn(routes, event.routeKey) ? routes[event.routeKey] : undefined;
    if (route) return route(event, context);
    return {
      statusCode: 404,
      headers: { "content-type": "application/json; charset=utf-8", "x-request-id": event.requestContext.requestId, "cache-control": "no-store" },
      body: JSON.stringify(errorBody(new AppError("not_found"))),
    };
  };
}
