import { Component, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import ErrorScreen from './ErrorScreen.tsx';
import { logError, newErrorId } from './errors.ts';

/**
 * The net under every island (public and admin): an error while rendering shows the fallback
 * error screen in the island's place instead of an empty box, and the browser's console gets one
 * line starting `[error {id}]` with the same id the screen shows.
 *
 * A class because React catches render errors only in one. Not react-error-boundary: the id has
 * to be made once per failure and shared by the log line and the screen, which here is one state
 * field, and every public island would carry the library's reset and hook machinery it never uses.
 */

interface Props {
	/** Names the island in the log line. */
	name: string;
	children?: ReactNode;
}

interface State {
	errorId: string | null;
}

export class ErrorBoundary extends Component<Props, State> {
	override state: State = { errorId: null };

	static getDerivedStateFromError(): State {
		return { errorId: newErrorId() };
	}

	override componentDidCatch(error: unknown, info: ErrorInfo): void {
		// Runs after the render that shows the screen, so the id here is the one on screen.
		const where = `island ${this.props.name} at ${window.location.pathname}`;
		logError(this.state.errorId ?? newErrorId(), where, error, info.componentStack ?? '');
	}

	override render() {
		return this.state.errorId ? <ErrorScreen errorId={this.state.errorId} /> : this.props.children;
	}
}

/**
 * An island's root wrapped in the boundary:
 * `export default withErrorBoundary('SearchDirectory', SearchDirectory)`. The page hydrates the
 * wrapped component, so a failure anywhere below the root is caught, the root's own render
 * included. The name is given, not read from the function: minified builds rename functions.
 */
export function withErrorBoundary<P extends object>(
	name: string,
	Island: ComponentType<P>,
): ComponentType<P> {
	function Guarded(props: P) {
		return (
			<ErrorBoundary name={name}>
				<Island {...props} />
			</ErrorBoundary>
		);
	}
	Guarded.displayName = `withErrorBoundary(${name})`;
	return Guarded;
}
