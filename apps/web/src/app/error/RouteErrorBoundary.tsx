import { Button } from '@mantine/core';
import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { reportError } from '../../lib/reporting.ts';
import { ErrorPage } from '../../ui/ErrorPage.tsx';
import { useLocalePath } from '../../ui/hooks/useLocalePath.ts';
import { PopupHost } from '../popup/PopupHost.tsx';

/** The status code of a route error: a thrown response's status, else 500. */
function errorStatus(error: unknown): number {
  if (isRouteErrorResponse(error)) return error.status;
  return 500;
}

/** Fatal route errors (loader, render, chunk) show the error page. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const statusCode = errorStatus(error);
  const lp = useLocalePath();

  useEffect(() => {
    if (statusCode !== 404) reportError(error, 'route');
  }, [error, statusCode]);

  return (
    <>
      <ErrorPage
        statusCode={statusCode}
        renderBack={(label) => (
          <Button component={Link} to={lp('/')} size="md" mt="sm">
            {label}
          </Button>
        )}
      />
      <PopupHost />
    </>
  );
}
